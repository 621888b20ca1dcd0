import { useEffect, useState } from 'react';
import { API_BASE, Button, Callout, OP_PATH, SelectField, useShell, type Documento } from 'shared';

/** What `comprobarfacturae` answers: whether the signed file can be made now, and why not. */
export type EstadoFacturae = {
  disponible: boolean;
  motivo: string | null;
  administracion_publica: 0 | 1;
  /** A rectificativa: Facturae's reason codes, and the one derived from its R type (the default). */
  rectificacion?: { motivo: string; motivos: { codigo: string; texto: string }[] } | null;
  /** A notice that does not stop the download (a transfer without the company's IBAN). */
  aviso?: string | null;
};

/** The signed Facturae of an invoice: a plain download of op.asp (the browser saves the file); a rectificativa's with its reason code. */
export const urlFacturae = (id: number, motivo?: string | null) =>
  `${API_BASE}${OP_PATH}?ac=descargarfacturae&id=${id}${motivo ? `&motivo=${encodeURIComponent(motivo)}` : ''}`;

/**
 * Facturae 3.2.2 (issue 16) of an emitted factura or rectificativa: asks the server whether it can be made (a
 * certificate stored in Configuración › VERI*FACTU, the addresses) once the document is emitted; null while it
 * does not apply or is being asked.
 */
export function useFacturae(documento: Documento | null, activo: boolean): EstadoFacturae | null {
  const { api } = useShell();
  const [estado, setEstado] = useState<EstadoFacturae | null>(null);
  const id = documento?.id;
  const emitida = documento?.estado === 'emitida';
  useEffect(() => {
    setEstado(null);
    if (!activo || !id || !emitida) return;
    let live = true;
    void api.get<EstadoFacturae>('comprobarfacturae', { id }).then((r) => {
      if (live && r.RESULT === '0' && r.data?.[0]) setEstado(r.data[0]);
    });
    return () => {
      live = false;
    };
  }, [api, activo, id, emitida]);
  return estado;
}

/** «Descargar Facturae»: the file, or the button disabled while the reason shows under the page's header. */
export function BotonFacturae({ documento, estado }: { documento: Documento; estado: EstadoFacturae | null }) {
  const [motivo, setMotivo] = useState<string | null>(null);
  if (!estado) return null;
  if (!estado.disponible) {
    // Facturae is for public administrations (FACe): for any other customer, no disabled button to explain.
    if (estado.administracion_publica !== 1) return null;
    return (
      <Button type="button" $variant="secondary" disabled aria-describedby="facturae-motivo" title={estado.motivo ?? undefined}>
        Descargar Facturae
      </Button>
    );
  }
  const r = estado.rectificacion;
  const elegido = motivo ?? r?.motivo ?? null;
  return (
    <>
      {r && (
        <SelectField
          label="Motivo de la rectificación (Facturae)"
          value={elegido}
          options={r.motivos.map((m) => ({ value: m.codigo, label: `${m.codigo} · ${m.texto}` }))}
          onChange={setMotivo}
        />
      )}
      <Button as="a" $variant="secondary" href={urlFacturae(documento.id, r ? elegido : null)} download>
        Descargar Facturae
      </Button>
    </>
  );
}

/**
 * Why the Facturae can't be downloaded, or what to mind in it: only for a customer marked as a public administration
 * (Facturae is what FACe takes); any other customer's invoice shows no Facturae notice.
 */
export function AvisoFacturae({ estado }: { estado: EstadoFacturae | null }) {
  if (estado?.administracion_publica !== 1) return null;
  if (!estado.disponible) {
    return (
      <Callout id="facturae-motivo" $tone="warning" role="status" style={{ marginBottom: 12 }}>
        Facturae no disponible: {estado.motivo}
      </Callout>
    );
  }
  if (estado.aviso) {
    return (
      <Callout $tone="warning" role="status" style={{ marginBottom: 12 }}>
        Facturae: {estado.aviso}
      </Callout>
    );
  }
  return null;
}
