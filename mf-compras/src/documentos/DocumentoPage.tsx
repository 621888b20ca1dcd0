import { useMemo, useState } from 'react';
import { useNavigate } from 'react-router';
import {
  ApiHttpError,
  Button,
  DocumentRecordPage,
  TERCEROS,
  TerceroField,
  documentosPdfBlob,
  downloadDocumentosPdf,
  empresaPdf,
  useDocumentEditor,
  useShell,
  type Documento,
  type Proveedor,
  useAlmacenInicial,
} from 'shared';
import { useAlmacenes } from '../opciones';
import { paths } from '../paths';
import { DevolverDialog } from './DevolverDialog';
import type { Pantalla } from './pantallas';
import { archivoPdf, opcionesPdfProveedor } from './pdfProveedor';

const PROVEEDOR = TERCEROS.proveedor;

/** Record and "nuevo" screen of a pedido, albarán or devolución de compra: one screen for the three. */
export function DocumentoPage({ pantalla, id }: { pantalla: Pantalla; id?: string }) {
  const { def } = pantalla;
  const navigate = useNavigate();
  const { api, config, toast, flags } = useShell();
  const editor = useDocumentEditor(def, id, {
    schema: pantalla.schema,
    empty: { retencion: '0' },
    onSaved: (d, isNew) => {
      if (isNew) navigate(pantalla.record(d.id), { replace: true });
    },
    onRemoved: () => navigate(pantalla.list),
  });
  const { form, documento, isNew, editable } = editor;
  const { values, errors, set } = form;
  const almacenes = useAlmacenes({ soloActivos: editable });
  useAlmacenInicial(form, isNew, almacenes.porDefecto);
  // The supplier's name as chosen on this screen (the document answers its own).
  const [elegido, setElegido] = useState<{ id: string; nombre: string } | null>(null);
  const [working, setWorking] = useState(false);
  const [devolviendo, setDevolviendo] = useState(false);

  const retencion = Number(values.retencion) || 0;
  const opcionesTotales = useMemo(() => ({ retencion }), [retencion]);
  const proveedorNombre = elegido && elegido.id === values.proveedor_id ? elegido.nombre : (documento?.proveedor_nombre ?? '');

  const pickProveedor = (p: Proveedor) => {
    set('proveedor_id', String(p.id));
    // The supplier's terms are the document's defaults.
    set('forma_pago', p.forma_pago ?? '');
    set('retencion', String(p.retencion ?? 0));
    setElegido({ id: String(p.id), nombre: p.razon_social });
  };

  const pdfDe = async (d: Documento) => ({ empresa: empresaPdf(config), def, ...(await opcionesPdfProveedor(api, [d])) });

  const imprimir = async (d: Documento) => {
    setWorking(true);
    try {
      await downloadDocumentosPdf([d], { fileName: archivoPdf(d.numero), ...(await pdfDe(d)) });
    } catch {
      toast.error();
    } finally {
      setWorking(false);
    }
  };

  /** The order's PDF, made here, mailed to the supplier by the server (its outbox without SMTP). */
  const enviarCorreo = async (d: Documento) => {
    setWorking(true);
    try {
      const blob = await documentosPdfBlob([d], await pdfDe(d));
      const res = await api.upload<unknown>('enviarcorreopedidocompra', blob, archivoPdf(d.numero), { id: d.id });
      if (res.RESULT === '0') toast.success(`Se ha enviado el pedido ${d.numero} por correo al proveedor`);
      else if (res.RESULT === '2') toast.associated();
      else toast.error(res.message);
    } catch (e) {
      toast.error(e instanceof ApiHttpError ? e.body.message : undefined);
    } finally {
      setWorking(false);
    }
  };

  const esperaGuardar = { disabled: working || editor.dirty, title: editor.dirty ? 'Guarde los cambios antes.' : undefined };

  return (
    <DocumentRecordPage
      pantalla={pantalla}
      editor={editor}
      almacenes={almacenes}
      working={working}
      description={documento?.proveedor_nombre ?? undefined}
      imprimir={{ onClick: () => documento && void imprimir(documento) }}
      actions={
        documento && (
          <>
            {def.tipo === 'albarancompra' && flags.compras_devoluciones === 1 && (
              <Button type="button" $variant="secondary" {...esperaGuardar} onClick={() => setDevolviendo(true)}>
                Devolver…
              </Button>
            )}
            {def.tipo === 'pedidocompra' && (
              <Button type="button" $variant="secondary" {...esperaGuardar} aria-busy={working} onClick={() => void enviarCorreo(documento)}>
                Enviar por correo
              </Button>
            )}
          </>
        )
      }
      renderCampo={(campo, disabled) =>
        campo === 'proveedor_id' && (
          <TerceroField<Proveedor>
            tercero={PROVEEDOR}
            required
            // Its lines come from another document of this supplier (a receipt, a return): the supplier stays.
            disabled={disabled || (documento?.padres?.length ?? 0) > 0}
            value={values.proveedor_id ?? ''}
            nombre={proveedorNombre}
            error={errors.proveedor_id}
            onPick={pickProveedor}
          />
        )
      }
      lineas={{ opcionesTotales }}
    >
      {devolviendo && documento && (
        <DevolverDialog albaran={documento} onCancel={() => setDevolviendo(false)} onCreated={(d) => navigate(paths.devolucion(d.id))} />
      )}
    </DocumentRecordPage>
  );
}
