import { Route, Routes } from 'react-router-dom';

export default function Section() {
  return (
    <Routes>
      <Route index element={<p>Configuración</p>} />
    </Routes>
  );
}
