import { actividadActions } from './actividad.ts';
import { almacenActions } from './almacenes/index.ts';
import { archivoActions } from './archivos.ts';
import { catalogoActions } from './catalogo/index.ts';
import { compraActions } from './compras/index.ts';
import { configuracionActions } from './configuracion.ts';
import { copiaActions } from './copias.ts';
import { demoActions } from './demo.ts';
import { graficoActions } from './grafico.ts';
import { inicioActions } from './inicio.ts';
import { informeActions } from './informes.ts';
import { createActionRegistry } from './registry.ts';
import { serieActions } from './series.ts';
import { sesionActions } from './sesion.ts';
import { usuarioActions } from './usuarios.ts';
import { rolActions } from './roles.ts';
import { ventaActions } from './ventas/index.ts';
import { tpvActions } from './tpv/index.ts';

/** Every op.asp action; a new concern adds its file here. */
export const createRegistry = () =>
  createActionRegistry(
    sesionActions,
    configuracionActions,
    usuarioActions,
    rolActions,
    serieActions,
    graficoActions,
    inicioActions,
    archivoActions,
    copiaActions,
    demoActions,
    catalogoActions,
    almacenActions,
    compraActions,
    ventaActions,
    actividadActions,
    tpvActions,
    informeActions,
  );
