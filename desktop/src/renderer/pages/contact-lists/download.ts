import { api } from '../../api';

/** Saves what an authenticated file route answers under `name` (the browser's download). */
export async function downloadFile(path: string, name: string): Promise<void> {
  const blob = await api.get<Blob>(path, { responseType: 'blob' });
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 1_000);
}

/** The sample spreadsheet of secondary §2. */
export const downloadSample = () => downloadFile('/contact-lists/sample', 'planilha.xlsx');
