import { Caja } from './caja/Caja';

/**
 * Everything under /tpv (exposed as `./Section`): the till, full screen. The shell mounts it outside its header,
 * its staff login and its router (menu.json `pantallaCompleta`): a paired terminal needs only the cashier. It uses no
 * route of its own, so react-router is not in the till's first paint (issue 23).
 */
export default function Section() {
  return <Caja />;
}
