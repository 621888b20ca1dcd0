import { describe, expect, it } from 'vitest';
import type { TicketLocal } from '../datos/cola';
import { terminalDePrueba } from '../pruebas';
import { hacerRegistro } from './registroFiscal';

/** Issue 22: a ticket the till makes offline names the producer the server told it, as the back office's records do. */
describe('hacerRegistro', () => {
  const ticket: TicketLocal = {
    uuid: '00000000-0000-4000-8000-000000000001', seq: 1, terminal_id: 7, fecha_hora: '2026-11-26T09:15:00+01:00', total: 1210, cambio: 0, pagos: [{ forma: 'efectivo', importe: 1210 }],
    lineas: [{ articulo_id: 1, cantidad: 1000, precio: 12100, descuento: 0, codigo: 'A1', nombre: 'Artículo 1', tipo_iva: '21' }],
  } as TicketLocal;

  it('SistemaInformatico names the configured producer; without one, the issuer', () => {
    const con = hacerRegistro(
      terminalDePrueba({ sistema: { nombre: 'Manager TPV', id: 'MT', version: '1.2.0', productor: { nombre: 'Distribuciones Levante SL', nif: 'B12345674' } } }),
      ticket, 2026, 1, null,
    );
    expect(con.registro.xml).toContain('<sf:SistemaInformatico><sf:NombreRazon>Distribuciones Levante SL</sf:NombreRazon><sf:NIF>B12345674</sf:NIF>');
    const sin = hacerRegistro(terminalDePrueba(), ticket, 2026, 1, null);
    expect(sin.registro.xml).toContain('<sf:SistemaInformatico><sf:NombreRazon>Tienda SL</sf:NombreRazon><sf:NIF>B12345678</sf:NIF>');
  });
});
