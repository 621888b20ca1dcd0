import { useState } from 'react';
import { Button, Callout, FormSection, Row, useAction } from 'shared';

/**
 * Utilidades › Recalcular informes: rebuilds the reports' aggregates (the sales per day and per document × article)
 * from the documents, and the stock per warehouse from the ledger, in one transaction (`recalcularinformes`), and says
 * whether what was stored differed.
 */
export function RecalcularInformesSection() {
  const { run, busy } = useAction();
  const [resultado, setResultado] = useState<{ filas: number; diferencias: number } | null>(null);

  const recalcular = async () => {
    setResultado(null);
    const outcome = await run<{ filas: number; diferencias: number }>('recalcularinformes', {});
    if (outcome.ok) setResultado(outcome.data[0] ?? { filas: 0, diferencias: 0 });
  };

  return (
    <FormSection
      title="Recalcular informes"
      description="Vuelve a calcular desde los documentos los totales de ventas que usan los informes, y el stock por almacén desde sus movimientos, y dice si había diferencias."
    >
      <Row>
        <Button type="button" $variant="secondary" disabled={busy} onClick={() => void recalcular()}>
          Recalcular informes
        </Button>
      </Row>
      {resultado && (
        <Callout role="status" $tone={resultado.diferencias === 0 ? 'info' : 'warning'} style={{ marginTop: 12 }}>
          {resultado.diferencias === 0
            ? `Los informes coincidían con los documentos (${resultado.filas.toLocaleString('es-ES')} filas).`
            : `Había ${resultado.diferencias.toLocaleString('es-ES')} ${resultado.diferencias === 1 ? 'fila distinta' : 'filas distintas'} de los documentos; ya están corregidas.`}
        </Callout>
      )}
    </FormSection>
  );
}
