import { useCallback, useMemo, useState } from 'react';
import { useNavigate } from 'react-router';
import {
  Button,
  DOCUMENTO_TIPOS,
  DocumentRecordPage,
  SelectField,
  useAlmacenInicial,
  useAlmacenes,
  useDocumentEditor,
  useImprimirDocumento,
  useListOptions,
  useShell,
  type ArticuloLinea,
  type Cliente,
  type Documento,
  type Usuario,
  usePermisos,
} from 'shared';
import { paths } from '../paths';
import { condicionesTexto } from '../clientes/condiciones';
import { precioTarifa, useCliente, useOperacionCliente } from '../facturas/datos';
import { padreFacturado } from '../facturas/devolucion';
import { DevolverDesdeDialog } from './DevolverDesdeDialog';
import { HorasParte, useHorasParte } from './HorasParte';
import type { Pantalla } from './pantallas';
import { useDisponibleVenta } from './useDisponible';

/**
 * Record and "nuevo" screen of a pedido, albarán, devolución de venta or parte de trabajo: one screen for the
 * four. The customer brings its terms (forma de pago, retención, recargo; tarifa and discount of new lines),
 * the lines show the stock available where goods leave, a parte adds who worked and its hours.
 */
export function DocumentoPage({ pantalla, id }: { pantalla: Pantalla; id?: string }) {
  const { def } = pantalla;
  const esParte = def.tipo === 'parte';
  const navigate = useNavigate();
  const { flags, user } = useShell();
  const [documentoActual, setDocumentoActual] = useState<Documento | null>(null);
  const horas = useHorasParte(esParte ? documentoActual : null);
  const editor = useDocumentEditor(def, id, {
    schema: pantalla.schema,
    empty: esParte ? { usuario_id: user ? String(user.id) : '' } : { retencion: '0' },
    permitirSinLineas: esParte,
    extra: esParte ? { body: horas.body, dirty: horas.dirty, valido: horas.valido } : undefined,
    onSaved: (d, isNew) => {
      if (isNew) navigate(pantalla.record(d.id), { replace: true });
    },
    onRemoved: () => navigate(pantalla.list),
  });
  const { form, documento, isNew, editable } = editor;
  const { values, errors, set } = form;
  const pdf = useImprimirDocumento(def);
  if (documento !== documentoActual) setDocumentoActual(documento);
  const almacenes = useAlmacenes({ soloActivos: editable });
  useAlmacenInicial(form, isNew, almacenes.porDefecto);
  const usuarios = useListOptions<Usuario>('listadousuarios', {
    params: { orden: 'nombre', dir: 'asc' },
    enabled: esParte,
    toOption: (u) => ({ value: String(u.id), label: u.activo === 0 ? `${u.nombre} (inactivo)` : u.nombre }),
  });
  // The customer as chosen on this screen, else read by id: its terms are the new lines' defaults.
  const [elegido, setElegido] = useState<Cliente | null>(null);
  const cliente = useCliente(values.cliente_id ?? '', elegido);
  const operacion = useOperacionCliente(cliente);
  const [desde, setDesde] = useState(false);

  const retencion = Number(values.retencion) || 0;
  // Recargo: the saved document's, until another customer is chosen.
  const recargo = documento && String(documento.cliente_id) === values.cliente_id ? documento.con_recargo === 1 : cliente?.recargo === 1;
  const opcionesTotales = useMemo(() => ({ retencion, recargo }), [retencion, recargo]);
  const tarifa = cliente?.tarifa ?? 1;
  const precioArticulo = useCallback((a: ArticuloLinea) => precioTarifa(a, tarifa), [tarifa]);

  const articuloIds = useMemo(() => editor.lineas.map((l) => l.articulo_id), [editor.lineas]);
  const disponible = useDisponibleVenta(values.almacen_id ?? '', articuloIds, { enabled: pantalla.disponible, version: documento });

  const permisos = usePermisos();
  const puedeDevolver = def.tipo === 'albaranventa' && flags.ventas_devoluciones === 1;
  const desdeDocumento = def.tipo === 'devolucionventa' && isNew && editor.editable;
  // A pending devolución of goods already invoiced (an invoice's lines, an invoiced albarán's) is settled by a rectificativa.
  const rectificable =
    def.tipo === 'devolucionventa' &&
    flags.ventas_facturas === 1 &&
    permisos.accion('editarrectificativa') &&
    documento?.estado === def.inicial &&
    (documento.padres ?? []).some(padreFacturado);

  return (
    <DocumentRecordPage
      pantalla={pantalla}
      editor={editor}
      almacenes={almacenes}
      working={pdf.working}
      description={documento?.cliente_nombre ?? undefined}
      // The customer's forma de pago and retención come with it; its tarifa, discount and recargo too.
      onTercero={(c) => setElegido(c as Cliente)}
      imprimir={{ onClick: () => documento && void pdf.imprimir(documento) }}
      devolver={puedeDevolver ? { def: DOCUMENTO_TIPOS.devolucionventa, record: paths.devolucion } : undefined}
      actions={
        (desdeDocumento || rectificable) && (
          <>
            {desdeDocumento && (
              <Button type="button" $variant="secondary" onClick={() => setDesde(true)}>
                Desde un albarán o una factura…
              </Button>
            )}
            {rectificable && (
              <Button
                type="button"
                $variant="secondary"
                disabled={editor.dirty}
                title={editor.dirty ? 'Guarde los cambios antes.' : 'La mercancía ya estaba facturada: la devolución se liquida con una rectificativa de esa factura.'}
                onClick={() => navigate(`${paths.nuevaRectificativa}?devolucion=${documento.id}`)}
              >
                Rectificar la factura
              </Button>
            )}
          </>
        )
      }
      renderCampo={(campo, disabled) => {
        if (campo === 'condiciones')
          return (
            cliente && (
              <div aria-label="Condiciones del cliente" role="note" style={{ alignSelf: 'end', fontSize: 13, paddingBottom: 8 }}>
                {condicionesTexto({ ...cliente, recargo: recargo ? 1 : 0 }, operacion)}
              </div>
            )
          );
        if (campo === 'usuario_id')
          return (
            <SelectField
              label="Trabajador"
              required
              disabled={disabled}
              placeholder={usuarios.loading ? 'Cargando…' : 'Seleccione…'}
              options={usuarios.options}
              value={values.usuario_id ?? ''}
              error={errors.usuario_id}
              onChange={(v) => set('usuario_id', v)}
            />
          );
        return null;
      }}
      etiquetas={esParte ? { lineas: 'Materiales', observaciones: 'Descripción del trabajo' } : undefined}
      secciones={esParte && <HorasParte horas={horas} readOnly={!editable} erroresServidor={errors} />}
      lineasDescripcion={esParte ? 'Lo usado en el trabajo: sale del almacén al finalizar el parte.' : undefined}
      lineas={{ opcionesTotales, precioArticulo, descuentoPorDefecto: cliente?.descuento, operacionPorDefecto: operacion, disponible }}
    >
      {desde && <DevolverDesdeDialog clienteId={values.cliente_id ?? ''} onCancel={() => setDesde(false)} onCreated={(d) => navigate(paths.devolucion(d.id))} />}
    </DocumentRecordPage>
  );
}
