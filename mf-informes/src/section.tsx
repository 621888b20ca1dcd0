import { Navigate, Route, Routes } from 'react-router';
import { AreaGate, ModuleGate, NotFoundPanel, isEntryVisible, usePermisos, useShell } from 'shared';
import { INFORMES } from './informes/definiciones';
import { ReportePage } from './informes/ReportePage';
import menu from './menu.json';
import type { Informe } from './informes/tipos';

/** A report behind its flags and the role's area, as its menu entry (the server refuses anyway). */
function Gated({ def }: { def: Informe }) {
  const page = <ReportePage key={def.slug} def={def} />;
  const withArea = def.area ? <AreaGate area={def.area}>{page}</AreaGate> : page;
  return def.module ? <ModuleGate module={def.module}>{withArea}</ModuleGate> : withArea;
}

/** /informes alone: the first report this user can open. */
function Indice() {
  const { flags } = useShell();
  const { derechos } = usePermisos();
  const first = menu.entries.find((e) => isEntryVisible(e as Parameters<typeof isEntryVisible>[0], flags, derechos));
  if (!first) return <NotFoundPanel title="Sin informes" text="Ningún informe está disponible con los módulos activos y su rol." back={{ to: '/', label: 'Volver al inicio' }} />;
  return <Navigate to={first.path} replace />;
}

/**
 * Everything under /informes (exposed as `./Section`): one generic report screen per definition
 * (src/informes/definiciones.ts), gated like its menu entry.
 */
export default function Section() {
  return (
    <Routes>
      <Route index element={<Indice />} />
      {INFORMES.map((def) => (
        <Route key={def.slug} path={def.slug} element={<Gated def={def} />} />
      ))}
      <Route path="*" element={<NotFoundPanel back={{ to: menu.prefix, label: 'Volver a Informes' }} />} />
    </Routes>
  );
}
