import { Link } from 'react-router';
import { AuthCard } from './AuthCard';

export function NotFoundPage() {
  return (
    <AuthCard title="Página no encontrada" lead="Error 404: la dirección que ha escrito no existe o ya no está disponible.">
      <div className="links">
        <Link to="/">Ir al inicio</Link>
      </div>
    </AuthCard>
  );
}
