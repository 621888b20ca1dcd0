import { useEffect, useState } from 'react';
import { ConfirmDialog, SelectField, TIPOS_ID, TIPO_ID_LABEL, TextField, opcionesPais, type RegistroFacturacion } from 'shared';

/** The text of the first `sf:name` element of a record's XML, unescaped; '' when absent. */
function campo(xml: string, name: string): string {
  const m = new RegExp(`<sf:${name}>([^<]*)</sf:${name}>`).exec(xml);
  if (!m) return '';
  return m[1].replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&apos;/g, "'").replace(/&amp;/g, '&');
}

/** What a subsanación may correct, as the record says it now (issue 16). */
export type DatosSubsanacion = {
  descripcion: string;
  destinatario_nombre: string;
  destinatario_nif: string;
  destinatario_pais: string;
  destinatario_tipo_id: string;
};

export function datosDelRegistro(xml: string): DatosSubsanacion & { conDestinatario: boolean } {
  const dest = /<sf:IDDestinatario>([\s\S]*?)<\/sf:IDDestinatario>/.exec(xml)?.[1] ?? '';
  const otro = /<sf:IDOtro>([\s\S]*?)<\/sf:IDOtro>/.exec(dest)?.[1];
  return {
    descripcion: campo(xml, 'DescripcionOperacion'),
    conDestinatario: !!dest,
    destinatario_nombre: campo(dest, 'NombreRazon'),
    destinatario_nif: otro ? campo(otro, 'ID') : campo(dest, 'NIF'),
    destinatario_pais: otro ? campo(otro, 'CodigoPais') : 'ES',
    destinatario_tipo_id: otro ? campo(otro, 'IDType') : 'NIF',
  };
}

type Props = {
  registro: RegistroFacturacion | null;
  busy: boolean;
  errors: Record<string, string>;
  onConfirm: (datos: Partial<DatosSubsanacion>) => void;
  onCancel: () => void;
};

/**
 * «Subsanar» (issue 16): an alta refused or accepted with errors is corrected by a new alta whose data the user may
 * correct here (the description of the operation and how the record codes the recipient: its country and kind of
 * identifier — its name and identifier are printed on the invoice, a rectificativa corrects them, as the AEAT's FAQ
 * says); its number, date and amounts are the invoice's and never change (those are corrected by a rectificativa). A refused anulación is sent
 * again as it was. Only the fields that changed travel.
 */
export function SubsanarDialog({ registro, busy, errors, onConfirm, onCancel }: Props) {
  const [inicial, setInicial] = useState<ReturnType<typeof datosDelRegistro> | null>(null);
  const [v, setV] = useState<DatosSubsanacion | null>(null);
  useEffect(() => {
    const d = registro && registro.tipo === 'alta' ? datosDelRegistro(registro.xml) : null;
    setInicial(d);
    setV(d);
  }, [registro]);
  const anulacion = registro?.tipo === 'anulacion';
  const set = (k: keyof DatosSubsanacion, value: string) => setV((x) => (x ? { ...x, [k]: value } : x));
  const confirmar = () => {
    if (!v || !inicial) return onConfirm({});
    const cambios: Partial<DatosSubsanacion> = {};
    if (v.descripcion.trim() !== inicial.descripcion) cambios.descripcion = v.descripcion.trim();
    const destino = (['destinatario_nombre', 'destinatario_nif', 'destinatario_pais', 'destinatario_tipo_id'] as const).some((k) => v[k] !== inicial[k]);
    if (inicial.conDestinatario && destino) {
      cambios.destinatario_nombre = v.destinatario_nombre;
      cambios.destinatario_nif = v.destinatario_nif;
      cambios.destinatario_pais = v.destinatario_pais;
      cambios.destinatario_tipo_id = v.destinatario_tipo_id;
    }
    onConfirm(cambios);
  };
  const estado = registro?.estado_envio === 'incorrecto' ? 'rechazado' : 'aceptado con errores';
  return (
    <ConfirmDialog
      open={registro !== null}
      title={anulacion ? 'Volver a enviar la anulación' : 'Subsanar el registro'}
      text={
        anulacion
          ? `Se generará un registro de anulación nuevo de la factura ${registro?.num_serie ?? ''}, marcado como anulación tras un rechazo previo, encadenado tras el último, que se enviará a la AEAT. El registro rechazado no se modifica.`
          : `Se generará un registro de alta nuevo de la factura ${registro?.num_serie ?? ''} marcado como subsanación, con los datos de abajo, encadenado tras el último, que se enviará a la AEAT. El número, la fecha y los importes son los de la factura (se corrigen con una rectificativa). El registro ${estado} no se modifica.`
      }
      confirmLabel={anulacion ? 'Volver a enviar' : 'Subsanar'}
      busy={busy}
      onConfirm={confirmar}
      onCancel={onCancel}
    >
      {v && (
        <div style={{ display: 'grid', gap: 8, marginBottom: 12 }}>
          <TextField label="Descripción de la operación" value={v.descripcion} maxLength={500} error={errors.descripcion} onChange={(x) => set('descripcion', x)} />
          {inicial?.conDestinatario && (
            <>
              {/* Printed on the invoice: a rectificativa corrects them (the AEAT's FAQ); the subsanación only how the record codes them. */}
              <TextField label="Destinatario" value={v.destinatario_nombre} readOnly error={errors.destinatario_nombre} onChange={() => undefined} />
              <SelectField label="País del destinatario" options={opcionesPais()} value={v.destinatario_pais} error={errors.destinatario_pais} onChange={(x) => set('destinatario_pais', x)} />
              <SelectField
                label="Tipo de identificación"
                options={(['NIF', ...TIPOS_ID] as const).map((t) => ({ value: t, label: TIPO_ID_LABEL[t] }))}
                value={v.destinatario_tipo_id}
                error={errors.destinatario_tipo_id}
                onChange={(x) => set('destinatario_tipo_id', x)}
              />
              <TextField
                label="Identificación del destinatario"
                value={v.destinatario_nif}
                readOnly
                hint="El nombre y la identificación figuran en la factura: si están mal, se corrigen con una rectificativa."
                error={errors.destinatario_nif}
                onChange={() => undefined}
              />
            </>
          )}
        </div>
      )}
    </ConfirmDialog>
  );
}
