import { useRef, useState, type FormEvent } from 'react';
import { Button, serverMessage, UNKNOWN_ERROR_MESSAGE, useStoreFormat, type ImportOrdersResponseJson, type OrderImportJson, type StoreFormat } from '@uplift/platform';
import { ORDER_IMPORT_MAX_BYTES, useImportOrders } from '@uplift/platform/connections';
import { TextField } from '@uplift/platform/text-field';
import { countOf, formatWhen } from '../lib/format';

export const FILE_TOO_LARGE_MESSAGE =
  'This file is larger than 20 MB, so it was not uploaded. Export a shorter date range and import each file.';

/** The file's text; FileReader rather than Blob.text(), which older browsers (and jsdom) lack. */
function readText(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result ?? ''));
    reader.onerror = () => reject(reader.error ?? new Error('The file could not be read.'));
    reader.readAsText(file);
  });
}

/** "1,234 orders from Jan 1, 2024 to Mar 31, 2024 (USD)". */
function describeImport(result: ImportOrdersResponseJson | OrderImportJson, format: StoreFormat): string {
  const range =
    result.firstDay && result.lastDay ? ` from ${format.day(result.firstDay)} to ${format.day(result.lastDay)}` : '';
  const currency = result.currency ? ` (${result.currency})` : '';
  return `${countOf(result.orders, 'order', 'orders')}${range}${currency}`;
}

export interface OrderImportCardProps {
  categoryId: string;
  lastImport: OrderImportJson | undefined;
}

/** Imports Shopify's order export (CSV) for stores that do not connect, or to add older orders. */
export function OrderImportCard({ categoryId, lastImport }: OrderImportCardProps) {
  const formRef = useRef<HTMLFormElement>(null);
  const [file, setFile] = useState<File | null>(null);
  const [readError, setReadError] = useState<string | null>(null);
  const [reading, setReading] = useState(false);
  const importOrders = useImportOrders();
  const tooLarge = file !== null && file.size > ORDER_IMPORT_MAX_BYTES;
  const result = importOrders.data;
  const format = useStoreFormat();
  const lastImportedAt = formatWhen(lastImport?.importedAt, format);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    // Refused here, before any upload: the server would refuse it too, after 20 MB on the wire.
    if (!file || file.size > ORDER_IMPORT_MAX_BYTES) return;
    importOrders.reset();
    setReadError(null);
    setReading(true);
    let csv: string;
    try {
      csv = await readText(file);
    } catch {
      setReadError('The file could not be read. Choose it again and retry.');
      return;
    } finally {
      setReading(false);
    }
    importOrders.mutate(
      { categoryId, csv },
      {
        onSuccess: () => {
          formRef.current?.reset();
          setFile(null);
        },
      },
    );
  };

  const error = tooLarge
    ? FILE_TOO_LARGE_MESSAGE
    : (readError ?? (importOrders.isError ? serverMessage(importOrders.error, UNKNOWN_ERROR_MESSAGE) : null));

  return (
    <section className="u-card" aria-labelledby="order-import-title">
      <h2 id="order-import-title">Import an order export</h2>
      <p className="u-muted">
        In Shopify Admin, go to Orders → Export and choose CSV; import that file here (up to 20 MB).
      </p>
      {lastImport && (
        <p>
          Last import: {describeImport(lastImport, format)}
          {lastImportedAt && `, imported ${lastImportedAt}`}.
        </p>
      )}
      <form ref={formRef} onSubmit={submit} style={{ maxWidth: '40rem' }}>
        <TextField
          label="Order export (CSV)"
          type="file"
          accept=".csv,text/csv"
          onChange={(event) => {
            setFile(event.target.files?.[0] ?? null);
            setReadError(null);
            importOrders.reset();
          }}
          error={error}
          action={
            <Button type="submit" loading={reading || importOrders.isPending} disabled={!file || tooLarge}>
              Import
            </Button>
          }
        />
      </form>
      {(reading || importOrders.isPending) && (
        <p className="u-muted" role="status">
          Uploading and reading your orders…
        </p>
      )}
      {result && (
        <div role="status" className="u-note" style={{ marginTop: '.75rem' }}>
          <p style={{ margin: 0 }}>Imported {describeImport(result, format)}</p>
          {(result.warnings?.length ?? 0) > 0 && (
            <>
              <p style={{ margin: '.5rem 0 0' }}>Imported with these notes:</p>
              <ul style={{ margin: '.25rem 0 0', paddingLeft: '1.25rem', overflowWrap: 'anywhere' }}>
                {result.warnings?.map((warning, index) => (
                  <li key={index}>{warning}</li>
                ))}
              </ul>
            </>
          )}
        </div>
      )}
    </section>
  );
}
