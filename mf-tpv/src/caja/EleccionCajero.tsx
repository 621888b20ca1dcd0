import { Fila, TouchButton } from './estilos';

/** Who sells: one button per cashier with a PIN, as a radio group (the till's opening and its lock). */
export function EleccionCajero({ cajeros, elegido, onElegir }: { cajeros: { id: number; nombre: string }[]; elegido: number | null; onElegir: (id: number) => void }) {
  return (
    <Fila role="radiogroup" aria-label="Cajero">
      {cajeros.map((c) => (
        <TouchButton key={c.id} type="button" role="radio" aria-checked={elegido === c.id} $tono={elegido === c.id ? 'primario' : 'neutro'} onClick={() => onElegir(c.id)}>
          {c.nombre}
        </TouchButton>
      ))}
    </Fila>
  );
}
