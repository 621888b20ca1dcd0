import { useState } from 'react';
import {
  API_BASE,
  BusyBar,
  Button,
  Callout,
  ConfirmDialog,
  FileField,
  FormSection,
  MESSAGES,
  OP_PATH,
  PageHeader,
  Row,
  uploadErrorMessage,
  usePermisos,
  useShell,
} from 'shared';
import { DemoSection } from './DemoSection';
import { RecalcularInformesSection } from './RecalcularInformesSection';
import { RecalcularStockSection } from './RecalcularStockSection';

/** A file download, not an op.asp envelope: the browser saves it. */
export const BACKUP_URL = `${API_BASE}${OP_PATH}?ac=copiaseguridad`;

const TABLE_LABEL: Record<string, string> = {
  configuracion: 'Configuración',
  usuarios: 'Usuarios',
  series: 'Series',
  archivos: 'Imágenes y archivos',
  documentos: 'Documentos',
};

type RestoreCounts = Record<string, number>;

/** /config/utilidades: backup download and restore, stock and reports recalculation. */
export function UtilidadesPage() {
  const { api, toast, reloadConfig } = useShell();
  // Only what the user's role may run: backups (Copias de seguridad), the stock check (Almacenes), the reports' rebuild
  // (Informes, acciones), the demo's removal (Configuración).
  const permisos = usePermisos();
  const puede = {
    descargar: permisos.accion('copiaseguridad'),
    restaurar: permisos.accion('restaurarcopia'),
    stock: permisos.accion('recalcularstock'),
    informes: permisos.accion('recalcularinformes'),
    demo: permisos.accion('eliminardemo'),
  };
  const [file, setFile] = useState<File | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [restoring, setRestoring] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [restored, setRestored] = useState<RestoreCounts | null>(null);

  const handleRestore = async () => {
    if (!file) return;
    setRestoring(true);
    setError(null);
    try {
      const res = await api.upload<RestoreCounts>('restaurarcopia', file);
      if (res.RESULT === '0') {
        setRestored(res.data?.[0] ?? {});
        setFile(null);
        toast.success(res.message ?? MESSAGES.backupRestored);
        // Company data, flags and branding come from the restored database now.
        await reloadConfig().catch(() => undefined);
      } else {
        const message = res.message ?? MESSAGES.invalidBackup;
        setError(message);
        toast.error(message);
      }
    } catch (e) {
      const message = uploadErrorMessage(e, MESSAGES.invalidBackup);
      setError(message);
      toast.error(message);
    } finally {
      setRestoring(false);
      setConfirming(false);
    }
  };

  return (
    <>
      <PageHeader title="Utilidades" description="Copias de seguridad de toda la base de datos, comprobación del stock y datos de demostración." />
      <div style={{ display: 'flex', flexDirection: 'column', gap: 16 }}>
        {puede.descargar && (
        <FormSection title="Descargar copia de seguridad">
          <p style={{ marginTop: 0 }}>
            Descarga un archivo JSON con toda la base de datos: configuración, usuarios, series, documentos e imágenes. Es portable: se
            puede restaurar en esta instalación o en otra, tanto con SQLite como con PostgreSQL.
          </p>
          <Callout style={{ marginBottom: 12 }}>
            Guarde el archivo en un lugar seguro: contiene los datos de la empresa y de sus clientes, y las contraseñas cifradas de los
            usuarios.
          </Callout>
          <Button as="a" href={BACKUP_URL} download>
            Descargar copia de seguridad
          </Button>
        </FormSection>
        )}

        {puede.restaurar && (
        <FormSection title="Restaurar una copia">
          <Callout $tone="warning" style={{ marginBottom: 12 }}>
            <p>
              <strong>Al restaurar se reemplazan todos los datos actuales</strong> (configuración, usuarios, series, documentos e
              imágenes) por los de la copia.
            </p>
            <p>Si pudiera necesitar los datos de ahora, descargue antes una copia de seguridad.</p>
          </Callout>
          <FileField
            label="Archivo de copia (.json)"
            accept=".json,application/json"
            file={file}
            disabled={restoring}
            error={error ?? undefined}
            hint="Un archivo descargado con «Descargar copia de seguridad»."
            onChange={(f) => {
              setFile(f);
              setError(null);
              setRestored(null);
            }}
          />
          <Row style={{ marginTop: 12 }}>
            <Button type="button" $variant="danger" disabled={!file || restoring} onClick={() => setConfirming(true)}>
              Restaurar copia…
            </Button>
          </Row>
          {restored && (
            <Callout role="status" style={{ marginTop: 12 }}>
              <p>{MESSAGES.backupRestored}.</p>
              {Object.keys(restored).length > 0 && (
                <p>
                  {Object.entries(restored)
                    .map(([table, n]) => `${TABLE_LABEL[table] ?? table}: ${Number(n).toLocaleString('es-ES')}`)
                    .join(' · ')}
                </p>
              )}
            </Callout>
          )}
        </FormSection>
        )}
        {puede.stock && <RecalcularStockSection />}
        {puede.informes && <RecalcularInformesSection />}
        {puede.demo && <DemoSection />}
      </div>

      <ConfirmDialog
        open={confirming}
        title="Restaurar copia de seguridad"
        text={`Se reemplazarán todos los datos actuales por los del archivo «${file?.name ?? ''}». Esta acción no se puede deshacer.`}
        confirmLabel="Restaurar"
        busy={restoring}
        onConfirm={() => void handleRestore()}
        onCancel={() => setConfirming(false)}
      >
        {restoring && (
          <div style={{ marginBottom: 16 }}>
            <BusyBar />
            <p style={{ margin: '8px 0 0', fontSize: 13 }}>Restaurando la copia… No cierre esta ventana.</p>
          </div>
        )}
      </ConfirmDialog>
    </>
  );
}
