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
  components: {
    Modal: Modal.extend({ defaultProps: { closeButtonProps: { 'aria-label': 'Close dialog' } } }),
    Notification: Notification.extend({ defaultProps: { closeButtonProps: { 'aria-label': 'Close notification' } } }),
  },
});

/** Mantine's light-scheme dimmed text (gray 6, 3.3:1 on white) is a shade darker here (gray 7, 5.7:1). */
export const cssVariablesResolver: CSSVariablesResolver = () => ({
  variables: {},
  light: { '--mantine-color-dimmed': 'var(--mantine-color-gray-7)' },
  dark: {},
});
