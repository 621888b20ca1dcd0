import { useState } from 'react';
import { MEDIO_COBRO_OPTIONS, MESSAGES, medioCobroDe, SelectField, TextField, formatDecimal, formatMoney, hoyIso, parseDecimal, useAction, type Documento } from 'shared';
import { situacionCobro, textosCobro } from './datos';
import { FormDialog } from 'shared';

type CobroDialogProps = {
  factura: Documento;
  /** The invoice after it (as cobrarfactura answers it), or null when the answer has no document. */
  onDone: (d: Documento | null) => void;
  onCancel: () => void;
};

/**
 * Records a cobro of an emitted invoice (`cobrarfactura`: date, method and amount — what is left by default, less for
 * a partial cobro or one instalment) or, when it is paid, takes its cobros away (an empty date); a rectificativa's
 * refund likewise.
 */
export function CobroDialog({ factura, onDone, onCancel }: CobroDialogProps) {
  const { run, busy } = useAction();
  const cobrada = !!factura.cobro_fecha;
  const { nombre } = textosCobro(factura.tipo);
  const clase = factura.tipo === 'rectificativa' ? 'rectificativa' : 'factura';
  // What is left: the account's (the invoice netting its rectificativas, less its cobros).
  const queda = situacionCobro(factura, hoyIso())?.queda ?? 0;
  // The next instalment's unpaid part, when there are several: the amount proposed.
  const plazo = factura.tipo === 'factura' ? factura.cuenta?.plazos.find((p) => p.pendiente > 0) : undefined;
  const propuesto = plazo && (factura.cuenta?.plazos.length ?? 0) > 1 ? plazo.pendiente : queda;
  const [fecha, setFecha] = useState(hoyIso());
  // How it is paid (efectivo, tarjeta, transferencia, recibo…), from the invoice's terms: «Recibo domiciliado a 30 días» → recibo.
  const [forma, setForma] = useState<string>(medioCobroDe(factura.forma_pago) ?? '');
  const [importe, setImporte] = useState(formatDecimal(propuesto, 2));
  const [errores, setErrores] = useState<Record<string, string>>({});

  const confirmar = async () => {
    if (cobrada) {
      const outcome = await run<Documento>('cobrarfactura', { id: factura.id, fecha: '', forma: '' }, { quiet: true });
      if (outcome.ok) onDone(outcome.data[0] ?? null);
      return;
    }
    const errs: Record<string, string> = {};
    if (!fecha) errs.fecha = MESSAGES.selectDate;
    if (!forma) errs.forma = MESSAGES.selectOption;
    const cents = parseDecimal(importe, 2);
    if (cents === null || cents <= 0n) errs.importe = MESSAGES.cobroImporteNoValido;
    else if (queda && cents > BigInt(queda)) errs.importe = MESSAGES.cobroSuperaPendiente.replace('{importe}', formatMoney(queda));
    setErrores(errs);
    if (Object.keys(errs).length) return;
    // Everything left travels without an amount (the server pays what is left).
    const body = Number(cents) === queda || !queda ? { id: factura.id, fecha, forma } : { id: factura.id, fecha, forma, importe: Number(cents) };
    const outcome = await run<Documento>('cobrarfactura', body, { quiet: true });
    if (outcome.ok) onDone(outcome.data[0] ?? null);
    else if (outcome.response?.errors) setErrores(outcome.response.errors);
    else if (outcome.response?.message) setErrores({ importe: outcome.response.message });
  };

  if (cobrada)
    return (
      <FormDialog
        title={`Quitar el ${nombre}`}
        text={`La ${clase} ${factura.numero} volverá a estar pendiente de ${nombre}.`}
        confirmLabel={`Quitar el ${nombre}`}
        busy={busy}
        onConfirm={() => void confirmar()}
        onCancel={onCancel}
      />
    );
  const c = factura.cuenta;
  const detalle = c && (c.cobrado !== 0 || c.rectificativas.length > 0) ? ` Pendiente: ${formatMoney(queda)}.` : '';
  return (
    <FormDialog
      title={`Registrar el ${nombre}`}
      text={`${clase === 'factura' ? 'Factura' : 'Rectificativa'} ${factura.numero} de ${factura.cliente_nombre ?? ''} por ${formatMoney(Math.abs(factura.total))}.${detalle}`}
      confirmLabel={`Registrar ${nombre}`}
      busy={busy}
      onConfirm={() => void confirmar()}
      onCancel={onCancel}
    >
      <TextField label={`Fecha de ${nombre}`} type="date" required value={fecha} error={errores.fecha} onChange={setFecha} />
      <SelectField label={`Forma de ${nombre}`} required placeholder="Seleccione…" options={MEDIO_COBRO_OPTIONS} value={forma} error={errores.forma} onChange={setForma} />
      <TextField label="Importe (€)" required inputMode="decimal" value={importe} error={errores.importe} onChange={setImporte} />
    </FormDialog>
  );
}
