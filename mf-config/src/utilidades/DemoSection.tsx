import { useCallback, useEffect, useState } from 'react';
import { Button, Callout, ConfirmDialog, FormSection, MESSAGES, Row, useAction, useShell, type EstadoDemo } from 'shared';

const n = (x: number) => x.toLocaleString('es-ES');

/**
 * Utilidades › Datos de demostración: a new install's demo company comes with a generated year of documents
 * (`listadodemo`); before going live they are removed in one transaction (`eliminardemo`), which the server refuses
 * once a real invoice was emitted. Without demo data the section says so and offers nothing.
 */
export function DemoSection() {
  const { api, toast, reloadConfig } = useShell();
  const { run, busy } = useAction();
  const [estado, setEstado] = useState<EstadoDemo | null>(null);
  const [confirmando, setConfirmando] = useState(false);
  const [rechazo, setRechazo] = useState<string | null>(null);

  const cargar = useCallback(async () => {
    try {
      const res = await api.get<EstadoDemo>('listadodemo');
      setEstado(res.RESULT === '0' ? (res.data?.[0] ?? null) : null);
    } catch {
      setEstado(null);
    }
  }, [api]);

  useEffect(() => {
    void cargar();
  }, [cargar]);

  const eliminar = async () => {
    setRechazo(null);
    const outcome = await run('eliminardemo', {}, { quiet: true });
    setConfirmando(false);
    if (outcome.ok) {
      setEstado({ presente: false, documentos: 0, facturas: 0, bloqueo: null });
      toast.success(outcome.response.message ?? MESSAGES.demoEliminada);
      await reloadConfig().catch(() => undefined);
    } else if (outcome.response?.message) setRechazo(outcome.response.message);
  };

  if (!estado) return null;
  const motivo = rechazo ?? estado.bloqueo;
  return (
    <FormSection title="Datos de demostración">
      {!estado.presente ? (
        <p style={{ margin: 0 }}>No hay datos de demostración: los documentos de esta instalación son los suyos.</p>
      ) : (
        <>
          <p style={{ marginTop: 0 }}>
            La empresa de demostración trae un año de actividad generada: {n(estado.documentos)} documentos de compra, venta y
            almacén, de ellos {n(estado.facturas)} facturas con sus registros VERI*FACTU (que nunca se envían a la AEAT), y los
            proveedores y clientes que los usan. Antes de empezar a trabajar con datos reales, elimínelos: la configuración, el
            catálogo y los usuarios se conservan y la numeración vuelve a empezar.
          </p>
          {motivo && (
            <Callout $tone="warning" role="alert" style={{ marginBottom: 12 }}>
              {motivo}
            </Callout>
          )}
          <Row>
            <Button type="button" $variant="danger" disabled={busy || !!motivo} onClick={() => setConfirmando(true)}>
              Eliminar datos de demostración…
            </Button>
          </Row>
        </>
      )}
      <ConfirmDialog
        open={confirmando}
        title="Eliminar datos de demostración"
        text={`Se eliminarán ${n(estado.documentos)} documentos de demostración con sus movimientos de stock y registros de facturación, y los proveedores y clientes generados. Esta acción no se puede deshacer.`}
        confirmLabel="Eliminar"
        busy={busy}
        onConfirm={() => void eliminar()}
        onCancel={() => setConfirmando(false)}
      />
    </FormSection>
  );
}
