import { useCallback, useEffect, useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import styled from 'styled-components';
import {
  ApiHttpError,
  AVISO_CADUCIDAD_DIAS,
  AvisoList,
  Button,
  Callout,
  ConfirmDialog,
  ENTORNO_VERIFACTU_LABEL,
  ENTORNOS_VERIFACTU,
  ErrorText,
  FECHAS_OBLIGACION_VERIFACTU,
  FileField,
  FormGrid,
  FormSection,
  MESSAGES,
  PageHeader,
  Row,
  SelectField,
  Spinner,
  SwitchField,
  TextField,
  formatDate,
  formatDateTime,
  hoyIso,
  textoOrigenObligacion,
  uploadErrorMessage,
  useAction,
  usePermisos,
  useShell,
  type CertificadoVerifactu,
  type EntornoVerifactu,
  type PasoVerifactu,
  type SistemaInformatico,
  type VerifactuInfo,
} from 'shared';

/** Where the records are, with their states (mf-ventas). */
export const REGISTROS_URL = '/ventas/registros';

const StyledDatos = styled.dl`
  display: grid;
  grid-template-columns: minmax(160px, max-content) minmax(0, 1fr);
  gap: 6px 16px;
  margin: 0;
  font-size: 14px;
  dt { color: ${({ theme }) => theme.gray[500]}; }
  dd { margin: 0; overflow-wrap: anywhere; }
  ${({ theme }) => theme.phone} { grid-template-columns: 1fr; dd { margin-bottom: 6px; } }
`;

const StyledDeclaracion = styled.div`
  white-space: pre-wrap;
  font-size: 14px;
  line-height: 1.5;
  max-height: 360px;
  overflow: auto;
  padding: 12px;
  border: 1px solid ${({ theme }) => theme.gray[200]};
  border-radius: 8px;
  background: ${({ theme }) => theme.gray[50]};
`;

const ENTORNO_OPTIONS = ENTORNOS_VERIFACTU.map((e) => ({ value: e, label: ENTORNO_VERIFACTU_LABEL[e] }));

const StyledPasos = styled.ol`
  list-style: none;
  margin: 0;
  padding: 0;
  display: grid;
  gap: 10px;
  li { display: grid; grid-template-columns: auto minmax(0, 1fr); gap: 4px 12px; align-items: start; padding: 10px 12px; border-radius: 8px; border: 1px solid ${({ theme }) => theme.gray[200]}; }
  li.hecho { background: #f0fdf4; border-color: #bbf7d0; }
  li.falta { background: #fffbeb; border-color: #fde68a; }
  .marca { font-weight: 700; font-size: 13px; white-space: nowrap; padding-top: 1px; }
  li.hecho .marca { color: #166534; }
  li.falta .marca { color: #92400e; }
  .titulo { font-weight: 600; font-size: 14px; }
  .detalle { grid-column: 2; font-size: 14px; color: ${({ theme }) => theme.gray[700]}; }
`;

/** The checklist: each step done or missing, with what to do (worked out by the server). */
function Pasos({ pasos }: { pasos: PasoVerifactu[] }) {
  return (
    <StyledPasos aria-label="Pasos de VERI*FACTU">
      {pasos.map((p, i) => (
        <li key={p.id} className={p.hecho ? 'hecho' : 'falta'} aria-label={`${i + 1}. ${p.titulo}: ${p.hecho ? 'hecho' : 'falta'}`}>
          <span className="marca">{p.hecho ? '✓ Hecho' : '✗ Falta'}</span>
          <span className="titulo">
            {i + 1}. {p.titulo}
          </span>
          <span className="detalle">{p.detalle}</span>
        </li>
      ))}
    </StyledPasos>
  );
}

/** The obligation date's options: the two the law sets, and the one stored if it is another. */
const obligacionOptions = (actual: string) => [
  ...FECHAS_OBLIGACION_VERIFACTU.map((f) => ({ value: f.value, label: f.label })),
  ...(FECHAS_OBLIGACION_VERIFACTU.some((f) => f.value === actual) || !actual ? [] : [{ value: actual, label: formatDate(actual) }]),
];
/**
 * Where the obligation date comes from (issue 22): the company's NIF (a legal entity or a natural person) or the
 * owner; a date being chosen now that is not the NIF's is the owner's from the save.
 */
function origenObligacion(info: VerifactuInfo, elegida: string, nif: string): string | undefined {
  if (!info.fecha_obligacion_origen) return undefined;
  if (elegida !== info.fecha_obligacion)
    return info.fecha_obligacion_nif && elegida === info.fecha_obligacion_nif
      ? 'Al guardar seguirá al NIF de la empresa.'
      : 'Al guardar quedará elegida a mano: ya no seguirá al NIF de la empresa.';
  return textoOrigenObligacion(info.fecha_obligacion_origen, nif);
}
const SI_NO: Record<string, string> = { S: 'Sí', N: 'No' };
const siNo = (v: string) => SI_NO[v] ?? v;
const numero = (n: number) => n.toLocaleString('es-ES');

function Datos({ filas }: { filas: [string, ReactNode][] }) {
  return (
    <StyledDatos>
      {filas.map(([k, v]) => (
        <div key={k} style={{ display: 'contents' }}>
          <dt>{k}</dt>
          <dd>{v === '' || v === null || v === undefined ? '—' : v}</dd>
        </div>
      ))}
    </StyledDatos>
  );
}

/** '15/03/2027 (quedan 12 días)', 'caducó el …'. */
function caducidad(c: CertificadoVerifactu): string {
  const fecha = formatDate(c.caduca);
  if (c.dias < 0) return `${fecha} (caducado)`;
  if (c.dias === 0) return `${fecha} (caduca hoy)`;
  return `${fecha} (${c.dias === 1 ? 'queda 1 día' : `quedan ${numero(c.dias)} días`})`;
}

function AvisoCertificado({ c }: { c: CertificadoVerifactu }) {
  if (c.dias > AVISO_CADUCIDAD_DIAS) return null;
  const caducado = c.dias < 0;
  return (
    <Callout $tone={caducado ? 'danger' : 'warning'} role={caducado ? 'alert' : 'status'} style={{ marginTop: 12 }}>
      {caducado
        ? `El certificado caducó el ${formatDate(c.caduca)}: la AEAT no admitirá los envíos. Suba uno vigente.`
        : `El certificado caduca el ${formatDate(c.caduca)}. Renuévelo y súbalo antes de esa fecha para que los envíos no se interrumpan.`}
    </Callout>
  );
}

const sistemaFilas = (s: SistemaInformatico): [string, ReactNode][] => [
  ['Productor (nombre o razón social)', s.nombre_razon],
  ['NIF del productor', s.nif],
  ...(s.direccion === undefined ? [] : ([['Dirección del productor', s.direccion || 'Sin indicar']] as [string, ReactNode][])),
  ...(s.productor_configurado === undefined
    ? []
    : ([['Productor según', s.productor_configurado ? 'el distribuidor de la instalación' : 'la propia empresa (sin productor configurado)']] as [string, ReactNode][])),
  ['Nombre del sistema', s.nombre],
  ['Identificador del sistema', s.id],
  ['Versión', s.version],
  ['Número de instalación', s.numero_instalacion],
  ...(s.componentes ? ([['Componentes', s.componentes.map((c) => `${c.nombre} (versión ${c.version})`).join(' · ')]] as [string, ReactNode][]) : []),
  ...(s.fecha_firma === undefined
    ? []
    : ([['Declaración suscrita', `${s.lugar_firma || 'lugar sin indicar'}, ${s.fecha_firma ? formatDate(s.fecha_firma) : 'fecha sin indicar'}`]] as [string, ReactNode][])),
  ['Solo VERI*FACTU', siNo(s.tipo_uso_posible_solo_verifactu)],
  ['Varios obligados tributarios', siNo(s.tipo_uso_posible_multi_ot)],
  ['Usado por varios obligados', siNo(s.indicador_multiples_ot)],
];

/**
 * /config/verifactu: sending the registros de facturación to the AEAT. On or off and the environment
 * (`editarverifactu`), the company's certificate (`subircertificadoverifactu`, `eliminarcertificadoverifactu`;
 * only its holder, NIF, issuer and expiry come back), the queue with «Enviar ahora»
 * (`enviarregistrosverifactu`), the SistemaInformatico data every record carries and the declaración responsable.
 */
/** Under «Dejar VERI*FACTU al acabar el año»: what marking it does, or what it has done. */
function finHint(info: VerifactuInfo): string {
  const anio = new Date().getFullYear();
  if (!info.fin) return `Los envíos a la AEAT comunicarán (FechaFinVeriFactu) que la empresa deja VERI*FACTU el 31/12/${anio}; se puede deshacer hasta ese día.`;
  const fin = formatDate(info.fin.fecha);
  const aeat = info.fin.comunicado ? `La AEAT lo recibió el ${formatDate(info.fin.comunicado.slice(0, 10))}.` : 'Se comunicará con el próximo envío de registros.';
  return info.fin.deshacer ? `Marcado: la empresa deja VERI*FACTU el ${fin}. ${aeat} Puede deshacerlo hasta ese día.` : `La empresa dejó VERI*FACTU el ${fin}. ${aeat}`;
}

export function VerifactuPage() {
  const { api, toast, config } = useShell();
  const { run, busy } = useAction();
  // What the user's role lets the server do here: no button it would refuse.
  const permisos = usePermisos();
  const puede = {
    editar: permisos.accion('editarverifactu'),
    subir: permisos.accion('subircertificadoverifactu'),
    eliminar: permisos.accion('eliminarcertificadoverifactu'),
    enviar: permisos.accion('enviarregistrosverifactu'),
  };
  const [info, setInfo] = useState<VerifactuInfo | null>(null);
  const [status, setStatus] = useState<'loading' | 'ready' | 'failed'>('loading');
  const [activo, setActivo] = useState(false);
  const [entorno, setEntorno] = useState<EntornoVerifactu>('pruebas');
  const [obligacion, setObligacion] = useState('');
  const [dejar, setDejar] = useState(false);
  const [archivo, setArchivo] = useState<File | null>(null);
  const [password, setPassword] = useState('');
  const [representante, setRepresentante] = useState(false);
  const [errores, setErrores] = useState<{ archivo?: string; password?: string }>({});
  const [subiendo, setSubiendo] = useState(false);
  const [eliminando, setEliminando] = useState(false);
  const [enviando, setEnviando] = useState(false);
  const [resultadoEnvio, setResultadoEnvio] = useState<string | null>(null);

  const load = useCallback(
    async (quiet = false) => {
      if (!quiet) setStatus('loading');
      try {
        const res = await api.get<VerifactuInfo>('listadoverifactu');
        const v = res.RESULT === '0' ? res.data?.[0] : undefined;
        if (!v) {
          if (!quiet) setStatus('failed');
          return;
        }
        setInfo(v);
        setActivo(v.activo === 1);
        setEntorno(v.entorno);
        setObligacion(v.fecha_obligacion);
        setDejar(!!v.fin);
        setStatus('ready');
      } catch {
        if (!quiet) setStatus('failed');
      }
    },
    [api],
  );

  useEffect(() => {
    void load();
  }, [load]);

  const cambiaFin = !!info && dejar !== !!info.fin;
  const dirty = !!info && (activo !== (info.activo === 1) || entorno !== info.entorno || obligacion !== info.fecha_obligacion || cambiaFin);

  const guardar = async () => {
    const outcome = await run(
      'editarverifactu',
      { activo: activo ? 1 : 0, entorno, fecha_obligacion: obligacion, ...(cambiaFin ? { dejar_verifactu: dejar ? 1 : 0 } : {}) },
      { quiet: true },
    );
    if (!outcome.ok) return;
    toast.success(outcome.response.message);
    await load(true);
  };

  /** A wrong password goes under the password (as a field error or as the message); anything else under the file. */
  const mostrarError = (mensaje: string, campos: Record<string, string>) => {
    const password = campos.password ?? (mensaje === MESSAGES.certificadoPasswordIncorrecta ? mensaje : undefined);
    setErrores(password ? { password } : { archivo: campos.archivo ?? mensaje });
    toast.error(password ?? mensaje);
  };

  const subir = async () => {
    const faltan = { archivo: archivo ? undefined : MESSAGES.certificadoRequerido, password: password ? undefined : MESSAGES.passwordRequired };
    setErrores(faltan);
    if (!archivo || !password) return;
    setSubiendo(true);
    try {
      const res = await api.upload<CertificadoVerifactu>('subircertificadoverifactu', archivo, undefined, { password, ...(representante ? { representante: '1' } : {}) });
      if (res.RESULT === '0') {
        toast.success(res.message ?? MESSAGES.certificadoGuardado);
        setArchivo(null);
        setPassword('');
        setRepresentante(false);
        await load(true);
      } else {
        mostrarError(res.message ?? MESSAGES.invalidFile, {});
      }
    } catch (e) {
      mostrarError(uploadErrorMessage(e, MESSAGES.invalidFile), e instanceof ApiHttpError ? (e.body.errors ?? {}) : {});
    } finally {
      setSubiendo(false);
    }
  };

  const eliminar = async () => {
    const outcome = await run('eliminarcertificadoverifactu', {}, { quiet: true });
    setEliminando(false);
    if (outcome.ok) {
      toast.success(outcome.response.message ?? MESSAGES.certificadoEliminado);
      await load(true);
    }
  };

  const enviar = async () => {
    setEnviando(true);
    setResultadoEnvio(null);
    try {
      const outcome = await run('enviarregistrosverifactu', {}, { quiet: true });
      if (outcome.ok) {
        setResultadoEnvio(outcome.response.message ?? null);
        await load(true);
      }
    } finally {
      setEnviando(false);
    }
  };

  if (status === 'loading') return <Spinner />;
  if (status === 'failed' || !info)
    return (
      <div role="alert">
        <PageHeader title="VERI*FACTU" />
        <ErrorText>No se ha podido cargar la configuración de VERI*FACTU.</ErrorText>{' '}
        <Button $variant="secondary" $small onClick={() => void load()}>
          Reintentar
        </Button>
      </div>
    );

  const { cola, certificado } = info;
  const corregir = cola.incorrectos + cola.aceptados_con_errores;
  return (
    <>
      <PageHeader
        title="VERI*FACTU"
        description="Envío de los registros de facturación a la AEAT a medida que se generan, con el certificado de la empresa."
      />
      <AvisoList avisos={info.avisos} label="Avisos de VERI*FACTU" />
      <div style={{ display: 'flex', flexDirection: 'column', gap: 16 }}>
        <FormSection
          title="Qué falta para cumplir VERI*FACTU"
          description={`Desde el ${formatDate(info.fecha_obligacion)} cada registro de facturación debe llegar a la AEAT. ${
            info.enviando
              ? 'Los registros se están enviando a la AEAT.'
              : info.dias_obligacion > 0
                ? `Quedan ${numero(info.dias_obligacion)} días: complete estos pasos antes.`
                : 'La fecha ya ha llegado: complete estos pasos cuanto antes.'
          }`}
        >
          <Pasos pasos={info.pasos} />
        </FormSection>
        <FormSection title="Envío a la AEAT" description="Con el envío activado, cada registro entra en una cola y se envía en lotes de hasta 1.000, respetando el tiempo de espera que indica la AEAT.">
          <FormGrid>
            <SwitchField
              name="activo"
              label="Enviar los registros a la AEAT (VERI*FACTU)"
              hint={certificado ? undefined : 'Necesita el certificado de la empresa para enviar.'}
              checked={activo}
              disabled={busy || !puede.editar}
              onChange={setActivo}
            />
            <SelectField label="Entorno" options={ENTORNO_OPTIONS} value={entorno} disabled={busy || !puede.editar} onChange={(v) => setEntorno(v as EntornoVerifactu)} />
            <SelectField
              label="Obligada a enviar desde"
              options={obligacionOptions(info.fecha_obligacion)}
              value={obligacion}
              hint={origenObligacion(info, obligacion, config?.nif ?? '')}
              disabled={busy || !puede.editar}
              onChange={setObligacion}
            />
            {(info.activo === 1 || info.fin) && (
              <SwitchField
                name="dejar_verifactu"
                label="Dejar VERI*FACTU al acabar el año"
                hint={finHint(info)}
                checked={dejar}
                disabled={busy || !puede.editar || (!!info.fin && !info.fin.deshacer)}
                onChange={setDejar}
              />
            )}
          </FormGrid>
          {!puede.editar && (
            <p style={{ fontSize: 13, margin: '8px 0 0' }}>Su rol puede ver esta configuración pero no cambiarla.</p>
          )}
          {entorno === 'produccion' && activo && (
            <Callout $tone="warning" style={{ marginTop: 12 }}>
              En producción los registros se presentan ante la AEAT con plena validez fiscal.
            </Callout>
          )}
          {/* Issue 22: «Producción» with sending off — the server refuses it from the obligation date, warns before it. */}
          {entorno === 'produccion' && !activo && (
            <Callout $tone={obligacion <= hoyIso() ? 'danger' : 'warning'} role="status" style={{ marginTop: 12 }}>
              {obligacion <= hoyIso()
                ? `Desde el ${formatDate(obligacion)} la empresa está obligada a enviar los registros: «Producción» con el envío desactivado no se puede guardar. Active el envío.`
                : `Con el envío desactivado, los registros de «Producción» se guardan y no llegan a la AEAT. Desde el ${formatDate(obligacion)} será obligatorio enviarlos.`}
            </Callout>
          )}
          <p style={{ fontSize: 13, margin: '12px 0 0', overflowWrap: 'anywhere' }}>
            Servicio de la AEAT: <code>{entorno === info.entorno ? info.endpoint : '(se mostrará al guardar)'}</code>
          </p>
          {puede.editar && (
            <Row style={{ marginTop: 12 }}>
              <Button type="button" disabled={!dirty || busy} onClick={() => void guardar()}>
                Guardar
              </Button>
            </Row>
          )}
        </FormSection>

        <FormSection title="Certificado de la empresa" description="Certificado electrónico de la empresa (o de su representante) en formato PKCS#12. Se guarda cifrado y no se puede descargar.">
          {certificado ? (
            <>
              <Datos
                filas={[
                  ['Titular', certificado.titular],
                  ['NIF', certificado.nif],
                  ['Emitido por', certificado.autofirmado ? `${certificado.emisor} (autofirmado)` : certificado.emisor],
                  ['Caduca el', caducidad(certificado)],
                  // Issue 16: a seal goes to the AEAT's seal hosts; a representative's names itself in every submission.
                  ['Tipo', certificado.sello ? 'Sello electrónico de la empresa' : certificado.representante ? 'De un representante o asesor de la empresa' : 'De la empresa o de su representante legal'],
                ]}
              />
              {certificado.autofirmado && (
                <Callout $tone="danger" role="alert" style={{ marginTop: 12 }}>
                  Este certificado es autofirmado: no lo ha emitido una autoridad reconocida y la AEAT no lo aceptará. Suba el de la empresa emitido por la FNMT, Camerfirma u otra autoridad
                  reconocida.
                </Callout>
              )}
              <AvisoCertificado c={certificado} />
              {puede.eliminar && (
                <Row style={{ marginTop: 12 }}>
                  <Button type="button" $variant="danger" $small disabled={busy || subiendo} onClick={() => setEliminando(true)}>
                    Eliminar certificado
                  </Button>
                </Row>
              )}
            </>
          ) : (
            <Callout $tone="warning" role="status">
              No hay certificado: sin él no se puede enviar a la AEAT.
            </Callout>
          )}
          {puede.subir && (
            <>
              <h3 style={{ fontSize: 15, margin: '20px 0 8px' }}>{certificado ? 'Sustituir el certificado' : 'Subir el certificado'}</h3>
              <FormGrid $min="260px">
                <FileField
                  label="Archivo del certificado (.p12 o .pfx)"
                  accept=".p12,.pfx,application/x-pkcs12"
                  file={archivo}
                  disabled={subiendo}
                  error={errores.archivo}
                  onChange={(f) => {
                    setArchivo(f);
                    setErrores((e) => ({ ...e, archivo: undefined }));
                  }}
                />
                <TextField
                  label="Contraseña del certificado"
                  type="password"
                  autoComplete="off"
                  value={password}
                  disabled={subiendo}
                  error={errores.password}
                  onChange={(v) => {
                    setPassword(v);
                    setErrores((e) => ({ ...e, password: undefined }));
                  }}
                />
              </FormGrid>
              <div style={{ marginTop: 12 }}>
                <SwitchField
                  label="Es el certificado de un representante o asesor con otro NIF"
                  hint="La AEAT recibirá los registros de la empresa remitidos por él (debe estar apoderado). Si no, el NIF del certificado tiene que ser el de la empresa."
                  checked={representante}
                  disabled={subiendo}
                  onChange={setRepresentante}
                />
              </div>
              <Row style={{ marginTop: 12 }}>
                <Button type="button" disabled={subiendo} aria-busy={subiendo} onClick={() => void subir()}>
                  {subiendo ? 'Subiendo…' : 'Subir certificado'}
                </Button>
              </Row>
            </>
          )}
        </FormSection>

        <FormSection title="Cola de envío">
          <Datos
            filas={[
              ['Pendientes de envío', cola.pendientes > 0 && cola.pendiente_desde ? `${numero(cola.pendientes)} (el más antiguo, del ${formatDateTime(cola.pendiente_desde)})` : numero(cola.pendientes)],
              ['Incorrectos', numero(cola.incorrectos)],
              ['Aceptados con errores', numero(cola.aceptados_con_errores)],
              ['Último envío', cola.ultimo_envio ? formatDateTime(cola.ultimo_envio) : 'Ninguno'],
              ['Próximo envío', cola.proximo_envio ? `no antes del ${formatDateTime(cola.proximo_envio)}` : ''],
              ['Último error de conexión', cola.ultimo_error ?? ''],
            ]}
          />
          {corregir > 0 && (
            <p style={{ fontSize: 14, margin: '12px 0 0' }}>
              <Link to={`${REGISTROS_URL}?estado_envio=${cola.incorrectos > 0 ? 'incorrecto' : 'aceptado_con_errores'}`}>Ver los registros que hay que subsanar</Link>
            </p>
          )}
          {resultadoEnvio && (
            <Callout role="status" style={{ marginTop: 12 }}>
              {resultadoEnvio}
            </Callout>
          )}
          <Row style={{ marginTop: 12 }}>
            {puede.enviar && (
              <Button
                type="button"
                $variant="secondary"
                disabled={info.activo !== 1 || enviando || busy}
                aria-describedby={info.activo !== 1 ? 'verifactu-enviar-por-que' : undefined}
                aria-busy={enviando}
                onClick={() => void enviar()}
              >
                {enviando ? 'Enviando…' : 'Enviar ahora'}
              </Button>
            )}
            <Button as={Link} to={REGISTROS_URL} $variant="ghost">
              Ver los registros de facturación
            </Button>
          </Row>
          {/* Why it can't be used, on the screen (not only in a tooltip). */}
          {puede.enviar && info.activo !== 1 && (
            <p id="verifactu-enviar-por-que" style={{ fontSize: 13, margin: '8px 0 0' }}>
              «Enviar ahora» no está disponible: el envío a la AEAT está desactivado. Actívelo arriba y guarde.
            </p>
          )}
        </FormSection>

        <FormSection title="Sistema informático" description="Los datos que acompañan a cada registro de facturación (bloque SistemaInformatico).">
          <Datos filas={sistemaFilas(info.sistema)} />
        </FormSection>

        <FormSection title="Declaración responsable">
          <StyledDeclaracion role="region" aria-label="Declaración responsable" tabIndex={0}>
            {info.declaracion}
          </StyledDeclaracion>
        </FormSection>
      </div>

      <ConfirmDialog
        open={eliminando}
        title="Eliminar el certificado"
        text="Sin certificado no se podrán enviar los registros a la AEAT: quedarán en la cola hasta que suba otro."
        confirmLabel="Eliminar"
        busy={busy}
        onConfirm={() => void eliminar()}
        onCancel={() => setEliminando(false)}
      />
    </>
  );
}
