/** Almacenes for selects and filters: `useAlmacenes` and `almacenOption` live in shared (every section's documents use them). */
export { almacenOption, useAlmacenes } from 'shared';
