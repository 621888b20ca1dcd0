import { useEffect } from 'react';
import { API_BASE, HEARTBEAT_PATH } from 'shared';
import { dropSession } from '../app/api';

/** Spec §7: a hidden frame loads logueado.asp; it reports an expired session to the page. */
export function Heartbeat() {
  useEffect(() => {
    const onMessage = (e: MessageEvent) => {
      if (e.origin !== window.location.origin) return;
      const d = e.data as { tipo?: string; logueado?: boolean } | null;
      if (d?.tipo === 'logueado' && d.logueado === false) dropSession();
    };
    window.addEventListener('message', onMessage);
    return () => window.removeEventListener('message', onMessage);
  }, []);
  return <iframe src={`${API_BASE}${HEARTBEAT_PATH}`} title="Comprobación de sesión" hidden tabIndex={-1} aria-hidden />;
}
