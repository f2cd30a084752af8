import { Table } from '@mantine/core';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useLocation } from 'react-router';
import { describe, expect, it } from 'vitest';

import { ApiError } from '@app/client';

import { renderPage } from '../test/render';
import { ListBody, type ListPage, useOffsetParam } from './ListBody';

interface Row {
  id: string;
  name: string;
}

function Fruit({ list }: { list: { error: unknown; data: ListPage<Row> | undefined } }) {
  const [offset, setOffset] = useOffsetParam();
  const location = useLocation();
  return (
    <>
      <ListBody
        list={list}
        label="Fruit"
        errorTitle="The fruit could not be loaded"
        loadingLabel="Loading the fruit"
        emptyTitle="No fruit"
        emptyText="Pick some first."
        head={<Table.Th scope="col">Name</Table.Th>}
        row={(row) => (
          <Table.Tr key={row.id}>
            <Table.Td>{row.name}</Table.Td>
          </Table.Tr>
        )}
        pager={{ offset, limit: 2, label: 'Pages of fruit', onChange: setOffset }}
      />
      <output aria-label="Address">{location.search}</output>
    </>
  );
}

describe('ListBody', () => {
  it('should show the error with its code', () => {
    renderPage(
      <Fruit list={{ error: new ApiError('Database unavailable', 503, 5003, 'internal'), data: undefined }} />,
    );
    const alert = screen.getByRole('alert', { name: 'The fruit could not be loaded' });
    expect(alert).toHaveTextContent('Database unavailable');
    expect(alert).toHaveTextContent('Error code 5003');
  });

  it('should announce loading, then say what an empty list means', () => {
    const { unmount } = renderPage(<Fruit list={{ error: null, data: undefined }} />);
    expect(screen.getAllByRole('status')[0]).toHaveTextContent('Loading the fruit…');
    unmount();
    renderPage(<Fruit list={{ error: null, data: { items: [], total: 0 } }} />);
    expect(screen.getByRole('heading', { level: 2, name: 'No fruit' })).toBeInTheDocument();
    expect(screen.getByText('Pick some first.')).toBeInTheDocument();
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
  });

  it('should show the page in a named table and move through pages in the address', async () => {
    renderPage(
      <Fruit
        list={{
          error: null,
          data: {
            items: [
              { id: '1', name: 'Apple' },
              { id: '2', name: 'Pear' },
            ],
            total: 5,
          },
        }}
      />,
      { path: '/fruit' },
    );
    const table = screen.getByRole('table', { name: 'Fruit' });
    expect(within(table).getByRole('columnheader', { name: 'Name' })).toBeInTheDocument();
    expect(within(table).getAllByRole('row')).toHaveLength(3);
    expect(screen.getByText('1–2 of 5')).toBeInTheDocument();
    const pages = screen.getByRole('navigation', { name: 'Pages of fruit' });
    await userEvent.click(within(pages).getByRole('button', { name: 'Page 3' }));
    expect(screen.getByRole('status', { name: 'Address' })).toHaveTextContent('?offset=4');
  });
});
