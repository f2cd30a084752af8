import { Page, RenderedPage } from './pagination';

describe(RenderedPage.name, () => {
  const rows = [
    { id: 'a', n: 1 },
    { id: 'b', n: 2 },
  ];

  it('should render the mapped rows as the JSON of the items, with the window and total', () => {
    const page = RenderedPage.of(rows, (row) => ({ id: row.id }), 12, { offset: 4, limit: 2 });

    expect(page).toEqual(new RenderedPage(Buffer.from('[{"id":"a"},{"id":"b"}]'), 12, 4, 2));
  });

  it('should render a rows array once per mapping, and again for other rows or another mapping', () => {
    const map = jest.fn((row: { id: string }) => row.id);
    const other = jest.fn((row: { id: string; n: number }) => row.n);

    const first = RenderedPage.of(rows, map, 2, { offset: 0, limit: 50 });
    const second = RenderedPage.of(rows, map, 2, { offset: 0, limit: 50 });
    const copy = RenderedPage.of([...rows], map, 2, { offset: 0, limit: 50 });
    const mappedOtherwise = RenderedPage.of(rows, other, 2, { offset: 0, limit: 50 });

    expect(second.items).toBe(first.items);
    expect(copy.items.toString()).toBe('["a","b"]');
    expect(mappedOtherwise.items.toString()).toBe('[1,2]');
    expect(map).toHaveBeenCalledTimes(4); // two rows, rendered for the first array and for its copy
    expect(RenderedPage.of(rows, map, 2, { offset: 0, limit: 50 }).items.toString()).toBe('["a","b"]');
    expect(map).toHaveBeenCalledTimes(6); // the other mapping came in between: rendered again
    expect(other).toHaveBeenCalledTimes(2);
  });

  it('should render what the same items render to as a Page', () => {
    const page = RenderedPage.of(rows, (row) => row, 2, { offset: 0, limit: 50 });

    expect(JSON.parse(page.items.toString())).toEqual(Page.of(rows, { offset: 0, limit: 50 }).items);
  });
});
