import path from 'node:path';

/**
 * What the environment says about the deployment, read once at start (main.ts) and checked before anything opens:
 * the reverse proxy to trust, the public address and the origins the links in mails may point at.
 */

/**
 * Fastify's `trustProxy` from `TRUST_PROXY`: which hops of X-Forwarded-For / -Proto / -Host are the proxy's.
 * - unset, empty, `0` or `false`: no proxy; the socket's address is the client's and those headers are ignored;
 * - a number `n` (`1` for one nginx or Caddy in front): the last `n` hops are proxies, the address before them is the
 *   client's, whatever the client wrote itself at the start of X-Forwarded-For;
 * - `true`: as `1` (it used to trust every hop, which let a client choose its own address);
 * - anything else: the proxies' addresses or networks, comma-separated (`127.0.0.1,::1`, `10.0.0.0/8`, `loopback`).
 */
export function trustProxyDe(valor: string | undefined): false | number | string[] {
  const v = (valor ?? '').trim();
  if (v === '' || v === '0' || v.toLowerCase() === 'false') return false;
  if (v.toLowerCase() === 'true') return 1;
  if (/^\d+$/.test(v)) return Number(v);
  const direcciones = v.split(',').map((s) => s.trim()).filter(Boolean);
  for (const d of direcciones) {
    if (!/^(loopback|linklocal|uniquelocal|[0-9a-fA-F.:]+(\/\d{1,3})?)$/.test(d)) {
      throw new ErrorDeConfiguracion(
        `TRUST_PROXY no es válida («${d}»): indique cuántos proxies hay delante (1 para un nginx o Caddy en la misma máquina) o sus direcciones separadas por comas (127.0.0.1,::1).`,
      );
    }
  }
  return direcciones;
}

/** A setting that keeps the server from starting; its message says what to set. */
export class ErrorDeConfiguracion extends Error {}

/** `https://tpv.ejemplo.es/` → `https://tpv.ejemplo.es`; refuses what is not an http(s) address with no path. */
export function origenDe(nombre: string, valor: string): string {
  let url: URL;
  try {
    url = new URL(valor);
  } catch {
    throw new ErrorDeConfiguracion(`${nombre} no es una dirección válida («${valor}»): escriba la dirección completa, p. ej. https://tpv.ejemplo.es`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new ErrorDeConfiguracion(`${nombre} debe empezar por https:// (o http://): «${valor}»`);
  }
  return url.origin;
}

/**
 * Checks the public address and the origins before the server starts. In production (`NODE_ENV=production`) the
 * public address is required: the password-recovery mail's link is made with it, never with the request's Host.
 */
export function comprobarOrigenes(opts: { production?: boolean; publicUrl?: string; origins?: readonly string[] }): void {
  if (opts.production && !opts.publicUrl) {
    throw new ErrorDeConfiguracion(
      'Falta PUBLIC_URL: en producción (NODE_ENV=production) es obligatoria. Es la dirección pública del programa, p. ej. PUBLIC_URL=https://tpv.ejemplo.es; los enlaces de los correos (recuperar la contraseña) se hacen con ella y nunca con la dirección que trae la petición.',
    );
  }
  if (opts.publicUrl) origenDe('PUBLIC_URL', opts.publicUrl);
  for (const o of opts.origins ?? []) origenDe('MANAGER_ORIGENES', o);
}

/** `MANAGER_ORIGENES`: comma-separated origins (http://tienda.local:3000,http://192.168.1.20:3000). */
export function origenesDe(valor: string | undefined): string[] {
  return (valor ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .map((o) => origenDe('MANAGER_ORIGENES', o));
}

/**
 * The daily backup from MANAGER_COPIAS_DIR (none when unset), MANAGER_COPIAS_DIAS (days kept, default 14) and
 * MANAGER_COPIAS_HORA (HH:MM in the shop's time zone, default 03:30).
 */
export function copiasDe(env: NodeJS.ProcessEnv): { dir: string; dias: number; hora: string } | undefined {
  const dir = env.MANAGER_COPIAS_DIR?.trim();
  if (!dir) return undefined;
  const diasTexto = env.MANAGER_COPIAS_DIAS?.trim() || '14';
  if (!/^\d{1,4}$/.test(diasTexto) || Number(diasTexto) < 1) {
    throw new ErrorDeConfiguracion(`MANAGER_COPIAS_DIAS no es válida («${diasTexto}»): cuántos días se guardan las copias, un número entero de 1 en adelante (14 si no se indica).`);
  }
  const hora = env.MANAGER_COPIAS_HORA?.trim() || '03:30';
  if (!/^([01]\d|2[0-3]):[0-5]\d$/.test(hora)) {
    throw new ErrorDeConfiguracion(`MANAGER_COPIAS_HORA no es válida («${hora}»): la hora de la copia diaria, HH:MM en la hora de la tienda (03:30 si no se indica).`);
  }
  if (!path.isAbsolute(dir)) throw new ErrorDeConfiguracion(`MANAGER_COPIAS_DIR debe ser una ruta absoluta («${dir}»), p. ej. /var/backups/manager-tpv`);
  return { dir, dias: Number(diasTexto), hora };
}
