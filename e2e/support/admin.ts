export const ADMIN = { email: 'admin@demo.es', password: 'Clave-e2e-2026' };
