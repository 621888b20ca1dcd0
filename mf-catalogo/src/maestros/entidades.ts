import {
  familiaSchema,
  marcaSchema,
  materialSchema,
  procesoSchema,
  subfamiliaSchema,
  type FlagName,
  type Schema,
} from 'shared';
import { paths } from '../paths';

export type MaestroKey = 'familia' | 'subfamilia' | 'marca' | 'material' | 'proceso';

/**
 * One object per master entity of the catalogue (as a react-admin resource): its actions, words,
 * addresses and flag. The list, record and new screens of all five are the same components.
 */
export type Maestro = {
  key: MaestroKey;
  singular: string;
  plural: string;
  /** 'Nueva familia', 'Nuevo material'. */
  nuevo: string;
  femenino: boolean;
  description: string;
  actions: { list: string; save: string; remove: string };
  schema: Schema;
  module?: FlagName;
  listPath: string;
  newPath: string;
  recordPath: (id: number | string) => string;
};

export const MAESTROS: Record<MaestroKey, Maestro> = {
  familia: {
    key: 'familia',
    singular: 'Familia',
    plural: 'Familias',
    nuevo: 'Nueva familia',
    femenino: true,
    description: 'Agrupan los artículos del catálogo, las listas de precios y los informes.',
    actions: { list: 'listadofamilias', save: 'editarfamilia', remove: 'eliminarfamilia' },
    schema: familiaSchema,
    listPath: paths.familias,
    newPath: paths.nuevaFamilia,
    recordPath: paths.familia,
  },
  subfamilia: {
    key: 'subfamilia',
    singular: 'Subfamilia',
    plural: 'Subfamilias',
    nuevo: 'Nueva subfamilia',
    femenino: true,
    description: 'Cada subfamilia pertenece a una familia y afina la clasificación de los artículos.',
    actions: { list: 'listadosubfamilias', save: 'editarsubfamilia', remove: 'eliminarsubfamilia' },
    schema: subfamiliaSchema,
    listPath: paths.subfamilias,
    newPath: paths.nuevaSubfamilia,
    recordPath: paths.subfamilia,
  },
  marca: {
    key: 'marca',
    singular: 'Marca',
    plural: 'Marcas',
    nuevo: 'Nueva marca',
    femenino: true,
    description: 'Fabricantes o marcas comerciales de los artículos.',
    actions: { list: 'listadomarcas', save: 'editarmarca', remove: 'eliminarmarca' },
    schema: marcaSchema,
    listPath: paths.marcas,
    newPath: paths.nuevaMarca,
    recordPath: paths.marca,
  },
  material: {
    key: 'material',
    singular: 'Material',
    plural: 'Materiales',
    nuevo: 'Nuevo material',
    femenino: false,
    description: 'Materiales de los que están hechos los artículos (y sus proporciones).',
    actions: { list: 'listadomateriales', save: 'editarmaterial', remove: 'eliminarmaterial' },
    schema: materialSchema,
    module: 'materiales',
    listPath: paths.materiales,
    newPath: paths.nuevoMaterial,
    recordPath: paths.material,
  },
  proceso: {
    key: 'proceso',
    singular: 'Proceso',
    plural: 'Procesos',
    nuevo: 'Nuevo proceso',
    femenino: false,
    description: 'Operaciones de fabricación o servicio, con su tiempo y su coste.',
    actions: { list: 'listadoprocesos', save: 'editarproceso', remove: 'eliminarproceso' },
    schema: procesoSchema,
    module: 'procesos',
    listPath: paths.procesos,
    newPath: paths.nuevoProceso,
    recordPath: paths.proceso,
  },
};
