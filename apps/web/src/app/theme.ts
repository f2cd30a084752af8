import { type CSSVariablesResolver, createTheme, Modal, Notification } from '@mantine/core';

/**
 * The console's theme, chosen for WCAG 2.2 AA: a primary shade dark enough for white text and for
 * links, secondary ("dimmed") text dark enough on white and on the light greys, and a name on every
 * close button the components draw.
 */
export const theme = createTheme({
  primaryColor: 'indigo',
  primaryShade: 8,
  fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, sans-serif',
  defaultRadius: 'md',
  // No sliding or fading for people who ask their system for less motion (WCAG 2.3.3).
  respectReducedMotion: true,
  components: {
    Modal: Modal.extend({ defaultProps: { closeButtonProps: { 'aria-label': 'Close dialog' } } }),
    Notification: Notification.extend({ defaultProps: { closeButtonProps: { 'aria-label': 'Close notification' } } }),
  },
});

/**
 * Text on light alerts and badges: the palette's darkest shade where it reads at 4.5:1 on that
 * colour's light background, a darker tone of the same hue where even that shade does not.
 */
const LIGHT_VARIANT_TEXT: Record<string, string> = {
  red: 'var(--mantine-color-red-9)',
  blue: 'var(--mantine-color-blue-9)',
  indigo: 'var(--mantine-color-indigo-9)',
  gray: 'var(--mantine-color-gray-9)',
  green: '#1f6b2f',
  teal: '#0b5e47',
  yellow: '#7a4f00',
  orange: '#8f3d00',
};

/**
 * The light scheme's secondary ("dimmed") text a shade darker than Mantine's (gray 7, 5.7:1 on white,
 * instead of gray 6 at 3.3:1), and the text of light alerts and badges dark enough for 4.5:1.
 */
export const cssVariablesResolver: CSSVariablesResolver = () => ({
  variables: {},
  light: {
    '--mantine-color-dimmed': 'var(--mantine-color-gray-7)',
    // A field's error message and its text: red 9 (5.4:1 on white) instead of red 6 (3.6:1).
    '--mantine-color-error': 'var(--mantine-color-red-9)',
    ...Object.fromEntries(
      Object.entries(LIGHT_VARIANT_TEXT).map(([color, text]) => [`--mantine-color-${color}-light-color`, text]),
    ),
  },
  // The dark scheme's secondary text a step lighter than Mantine's (dark 1 instead of dark 2) for 4.5:1 on
  // the dark body and panels.
  dark: {
    '--mantine-color-dimmed': 'var(--mantine-color-dark-1)',
    // A field's error on the dark panels: red 4 instead of red 8, which reads below 4.5:1 there.
    '--mantine-color-error': 'var(--mantine-color-red-4)',
  },
});
