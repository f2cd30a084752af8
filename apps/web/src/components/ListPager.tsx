import { Group, Pagination, Text } from '@mantine/core';

/** "21–40 of 230" and page buttons for a list paged with the API's offset and limit. */
export function ListPager({
  total,
  offset,
  limit,
  onChange,
  label,
}: {
  total: number;
  offset: number;
  limit: number;
  onChange: (offset: number) => void;
  /** Names the page buttons for assistive technology, e.g. "Pages of cost records". */
  label: string;
}) {
  if (total <= 0) {
    return null;
  }
  const pages = Math.max(1, Math.ceil(total / limit));
  const page = Math.min(pages, Math.floor(offset / limit) + 1);
  return (
    <Group justify="space-between" mt="sm" wrap="wrap">
      <Text size="sm" c="dimmed">
        {offset + 1}–{Math.min(total, offset + limit)} of {total}
      </Text>
      {pages > 1 ? (
        <nav aria-label={label}>
          <Pagination
            size="sm"
            total={pages}
            value={page}
            onChange={(next) => onChange((next - 1) * limit)}
            getControlProps={(control) => ({
              'aria-label': `${control.charAt(0).toUpperCase()}${control.slice(1)} page`,
            })}
            getItemProps={(item) => ({ 'aria-label': `Page ${item}` })}
          />
        </nav>
      ) : null}
    </Group>
  );
}
