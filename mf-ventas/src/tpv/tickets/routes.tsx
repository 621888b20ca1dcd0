import type { ReactElement } from 'react';
import { Route, useParams } from 'react-router';
import { TICKET } from './pantalla';
import { TicketListPage } from './TicketListPage';
import { TicketPage } from './TicketPage';

function TicketRoute() {
  const id = useParams()[TICKET.rutas.param];
  return <TicketPage key={id} id={id} />;
}

/** Tickets under /ventas: the list and the record (no «nuevo»: the till makes them). Gated by the caller. */
export function ticketRoutes(gate: (el: ReactElement) => ReactElement): ReactElement[] {
  return [
    <Route key="tickets" path={TICKET.rutas.list} element={gate(<TicketListPage />)} />,
    <Route key="ticket" path={TICKET.rutas.record} element={gate(<TicketRoute />)} />,
  ];
}
