import { useState } from 'react';
import {
  ApiHttpError,
  Badge,
  Button,
  Callout,
  FormGrid,
  FormSection,
  PageHeader,
  SelectField,
  downloadGroupedTablePdf,
  useShell,
} from 'shared';
import { useFamilias } from '../opciones';
import { columnasListado, construirListado, type FilaPrecio } from './listado';

/** Today as dd/mm/aaaa, local time. */
function hoy(): string {
  return new Date().toLocaleDateString('es-ES', { day: '2-digit', month: '2-digit', year: 'numeric' });
}

/** /catalogo/listado-precios (flag listado): the printable price list of active articles, per familia. */
export function ListadoPreciosPage() {
  const { api, flags, config, toast } = useShell();
  const familias = useFamilias();
  const [familiaId, setFamiliaId] = useState('');
  const [busy, setBusy] = useState(false);
  const [hecho, setHecho] = useState<{ articulos: number; familias: number } | null>(null);
  const columnas = columnasListado(flags, config?.impuesto ?? 'iva');

  const handlePdf = async () => {
    setBusy(true);
    setHecho(null);
    try {
      const res = await api.get<FilaPrecio>('listadoprecios', familiaId ? { familia_id: familiaId } : undefined);
      if (res.RESULT !== '0' && res.RESULT !== '3') return toast.error(res.message);
      const filas = res.RESULT === '0' ? (res.data ?? []) : [];
      if (filas.length === 0) return toast.info('No hay artículos activos que listar');
      const listado = construirListado(filas, flags);
      const empresa = config?.nombre_comercial || config?.razon_social || 'Manager TPV';
      await downloadGroupedTablePdf({
        fileName: 'listado-precios.pdf',
        title: 'Listado de precios',
        subtitle: `${empresa} · ${hoy()}`,
        ...listado,
      });
      setHecho({ articulos: filas.length, familias: listado.groups.length });
    } catch (e) {
      toast.error(e instanceof ApiHttpError ? e.message : undefined);
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <PageHeader title="Listado de precios" description="El catálogo de artículos activos con sus precios, agrupado por familia, en PDF para imprimir o enviar." />
      <div style={{ display: 'flex', flexDirection: 'column', gap: 16 }}>
        <FormSection title="Contenido">
          <FormGrid>
            <SelectField label="Familia" placeholder="Todas las familias" options={familias.options} value={familiaId} onChange={setFamiliaId} />
          </FormGrid>
          <p style={{ fontSize: 14, margin: '12px 0 0' }}>
            Columnas:{' '}
            {columnas.map((c) => (
              <Badge key={c.header} style={{ marginRight: 4 }}>
                {c.header}
              </Badge>
            ))}
          </p>
          <p style={{ fontSize: 13, margin: '6px 0 0', color: '#64748b' }}>Las tarifas 2 y 3 y los PVP aparecen según los módulos activados en la configuración.</p>
          <div style={{ marginTop: 16 }}>
            <Button type="button" onClick={() => void handlePdf()} disabled={busy} aria-busy={busy}>
              {busy ? 'Generando…' : 'Descargar PDF'}
            </Button>
          </div>
        </FormSection>
        {hecho && (
          <Callout role="status">
            <p>
              Listado generado: {hecho.articulos.toLocaleString('es-ES')} artículos en {hecho.familias.toLocaleString('es-ES')} familia{hecho.familias === 1 ? '' : 's'}.
            </p>
          </Callout>
        )}
      </div>
    </>
  );
}
