import { Route, Routes } from 'react-router';
import { Caja } from './caja/Caja';

/**
 * Everything under /tpv (exposed as `./Section`): the till, full screen. The shell mounts it outside its header
 * and staff login (menu.json `pantallaCompleta`): a paired terminal needs only the cashier.
 */
export default function Section() {
  return (
    <Routes>
      <Route path="*" element={<Caja />} />
    </Routes>
  );
}
