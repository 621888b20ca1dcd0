import { useState } from 'react';
import { useNavigate } from 'react-router';
import { SelectField, TERCEROS, TerceroField, useAction, useListOptions, type Documento, type Serie, type TerceroFila } from 'shared';
import { FormDialog } from 'shared';
import { paths } from '../../paths';

/**
 * «Factura completa…» of a ticket (`facturarticket`): the customer (with a valid NIF, the server checks) and the
 * serie of ordinary invoices; the full invoice F3 replaces the ticket and opens.
 */
export function FacturaCompletaDialog({ ticket, onCancel }: { ticket: Documento; onCancel: () => void }) {
  const navigate = useNavigate();
  const { run, busy } = useAction();
  const [cliente, setCliente] = useState<{ id: string; nombre: string }>({ id: ticket.cliente_id ? String(ticket.cliente_id) : '', nombre: ticket.cliente_nombre ?? '' });
  const [serie, setSerie] = useState('');
  const series = useListOptions<Serie>('listadoseries', {
    params: { tipo: 'normal', activo: 1, orden: 'codigo', dir: 'asc' },
    toOption: (s) => ({ value: String(s.id), label: `${s.codigo} · ${s.descripcion}` }),
  });
  const confirmar = async () => {
    const outcome = await run<Documento>('facturarticket', { id: ticket.id, cliente_id: Number(cliente.id), ...(serie ? { serie_id: Number(serie) } : {}) });
    if (outcome.ok && outcome.data[0]) navigate(paths.factura(outcome.data[0].id));
  };
  return (
    <FormDialog
      title={`Factura completa del ticket ${ticket.numero}`}
      text="Una factura completa (F3) sustituye al ticket con los datos del cliente: las mismas líneas y el mismo importe, cobrada y sin mover el stock otra vez. El ticket queda «Facturado»."
      confirmLabel="Hacer la factura"
      busy={busy}
      disabled={!cliente.id}
      onConfirm={() => void confirmar()}
      onCancel={onCancel}
    >
      <TerceroField<TerceroFila>
        tercero={TERCEROS.cliente}
        required
        value={cliente.id}
        nombre={cliente.nombre}
        onPick={(c) => setCliente({ id: String(c.id), nombre: c.razon_social })}
      />
      <SelectField label="Serie" placeholder="La primera activa" options={series.options} value={serie} onChange={setSerie} />
    </FormDialog>
  );
}
