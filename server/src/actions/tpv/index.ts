import { botonActions } from './botones.ts';
import { cajaActions } from './caja.ts';
import { clienteTpvActions } from './clientes.ts';
import { devolucionActions } from './devoluciones.ts';
import { incidenciaActions } from './incidencias.ts';
import { terminalActions } from './terminales.ts';
import { ticketActions } from './tickets.ts';

/** The TPV's op.asp actions (issue 13; docs/tpv-servidor.md), calling into the till's domain (server/src/tpv/). */
export const tpvActions = [...terminalActions, ...botonActions, ...ticketActions, ...clienteTpvActions, ...cajaActions, ...incidenciaActions, ...devolucionActions];
