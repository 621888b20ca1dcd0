import { useState } from 'react';
import { FORMA_PAGO_OPTIONS, MESSAGES, SelectField, TextField, formatMoney, hoyIso, useAction, type Documento } from 'shared';
import { textosCobro } from './datos';
import { Dialogo } from './Dialogo';

type CobroDialogProps = {
  factura: Documento;
  /** The invoice after it (as cobrarfactura answers it), or null when the answer has no document. */
  onDone: (d: Documento | null) => void;
  onCancel: () => void;
};

/**
 * Marks an emitted invoice as paid (`cobrarfactura`: date and payment method) or, when it already is,
 * as unpaid again (an empty date); a rectificativa likewise as refunded.
 */
export function CobroDialog({ factura, onDone, onCancel }: CobroDialogProps) {
  const { run, busy } = useAction();
  const cobrada = !!factura.cobro_fecha;
  const { nombre } = textosCobro(factura.tipo);
  const clase = factura.tipo === 'rectificativa' ? 'rectificativa' : 'factura';
  const [fecha, setFecha] = useState(hoyIso());
  const [forma, setForma] = useState(factura.forma_pago ?? '');
  const [errores, setErrores] = useState<Record<string, string>>({});

  const confirmar = async () => {
    if (!cobrada) {
      const errs: Record<string, string> = {};
      if (!fecha) errs.fecha = MESSAGES.selectDate;
      if (!forma) errs.forma = MESSAGES.selectOption;
      setErrores(errs);
      if (Object.keys(errs).length) return;
    }
    const outcome = await run<Documento>('cobrarfactura', cobrada ? { id: factura.id, fecha: '', forma: '' } : { id: factura.id, fecha, forma }, { quiet: true });
    if (outcome.ok) onDone(outcome.data[0] ?? null);
    else if (outcome.response?.errors) setErrores(outcome.response.errors);
  };

  if (cobrada)
    return (
      <Dialogo
        title={`Quitar el ${nombre}`}
        text={`La ${clase} ${factura.numero} volverá a estar pendiente de ${nombre}.`}
        confirmLabel={`Quitar el ${nombre}`}
        busy={busy}
        onConfirm={() => void confirmar()}
        onCancel={onCancel}
      />
    );
  // A refund is money paid out: its amount reads positive.
  const importe = formatMoney(factura.tipo === 'rectificativa' && factura.total < 0 ? -factura.total : factura.total);
  return (
    <Dialogo
      title={`Registrar el ${nombre}`}
      text={`${clase === 'factura' ? 'Factura' : 'Rectificativa'} ${factura.numero} de ${factura.cliente_nombre ?? ''} por ${importe}.`}
      confirmLabel={`Registrar ${nombre}`}
      busy={busy}
      onConfirm={() => void confirmar()}
      onCancel={onCancel}
    >
      <TextField label={`Fecha de ${nombre}`} type="date" required value={fecha} error={errores.fecha} onChange={setFecha} />
      <SelectField label={`Forma de ${nombre}`} required placeholder="Seleccione…" options={FORMA_PAGO_OPTIONS} value={forma} error={errores.forma} onChange={setForma} />
    </Dialogo>
  );
}
