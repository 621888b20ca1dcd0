import { useMemo, useState } from 'react';
import { useNavigate } from 'react-router';
import {
  Button,
  CorreoDocumentoDialog,
  DOCUMENTO_TIPOS,
  DocumentRecordPage,
  TextField,
  useDocumentEditor,
  useImprimirDocumento,
  useShell,
  type Documento,
  useAlmacenInicial,
  usePermisos,
} from 'shared';
import { useAlmacenes } from '../opciones';
import { paths } from '../paths';
import type { Pantalla } from './pantallas';

/**
 * Record and "nuevo" screen of a pedido, albarán or devolución de compra: one screen for the three (the supplier's
 * terms are the defaults; the albarán's «Devolver…», the order's «Enviar por correo»).
 */
export function DocumentoPage({ pantalla, id }: { pantalla: Pantalla; id?: string }) {
  const { def } = pantalla;
  const navigate = useNavigate();
  const { api, flags } = useShell();
  const permisos = usePermisos();
  const editor = useDocumentEditor(def, id, {
    schema: pantalla.schema,
    empty: { retencion: '0' },
    onSaved: (d, isNew) => {
      if (isNew) navigate(pantalla.record(d.id), { replace: true });
    },
    onRemoved: () => navigate(pantalla.list),
  });
  const { form, documento, isNew, editable } = editor;
  const { values } = form;
  const almacenes = useAlmacenes({ soloActivos: editable });
  useAlmacenInicial(form, isNew, almacenes.porDefecto);
  const pdf = useImprimirDocumento(def);

  const retencion = Number(values.retencion) || 0;
  const opcionesTotales = useMemo(() => ({ retencion }), [retencion]);

  /** The mail's dialog, with the supplier's address read first (recipient, subject and message shown before sending). */
  const [correo, setCorreo] = useState<{ email: string } | null>(null);
  const enviarCorreo = (d: Documento) =>
    pdf.trabajando(async () => {
      const res = d.proveedor_id ? await api.get<{ email: string | null }>('listadoproveedores', { id: d.proveedor_id }) : null;
      setCorreo({ email: res?.RESULT === '0' ? (res.data?.[0]?.email ?? '') : '' });
    });

  const esperaGuardar = { disabled: pdf.working || editor.dirty, title: editor.dirty ? 'Guarde los cambios antes.' : undefined };

  return (
    <DocumentRecordPage
      pantalla={pantalla}
      editor={editor}
      almacenes={almacenes}
      working={pdf.working}
      description={documento?.proveedor_nombre ?? undefined}
      imprimir={{ onClick: () => documento && void pdf.imprimir(documento) }}
      devolver={def.tipo === 'albarancompra' && flags.compras_devoluciones === 1 ? { def: DOCUMENTO_TIPOS.devolucioncompra, record: paths.devolucion } : undefined}
      actions={
        documento &&
        def.tipo === 'pedidocompra' &&
        permisos.accion('enviarcorreopedidocompra') && (
          <Button type="button" $variant="secondary" {...esperaGuardar} aria-busy={pdf.working} onClick={() => void enviarCorreo(documento)}>
            Enviar por correo
          </Button>
        )
      }
      lineas={{ opcionesTotales }}
      renderCampo={(campo, disabled) =>
        campo === 'albaran_proveedor' ? (
          <TextField
            label="Albarán del proveedor"
            maxLength={60}
            disabled={disabled}
            placeholder="Su número de albarán"
            value={values.albaran_proveedor}
            error={form.errors.albaran_proveedor}
            onChange={(v) => form.set('albaran_proveedor', v)}
          />
        ) : null
      }
    >
      {correo && documento && (
        <CorreoDocumentoDialog
          documento={documento}
          ac="enviarcorreopedidocompra"
          title="Enviar el pedido por correo"
          email={correo.email}
          destinatario={documento.proveedor_nombre}
          sinEmail="El proveedor no tiene correo electrónico: indíquelo."
          pdfOpciones={pdf.opciones}
          enviado={`Se ha enviado el pedido ${documento.numero} por correo al proveedor`}
          onClose={() => setCorreo(null)}
        />
      )}
    </DocumentRecordPage>
  );
}
