/**
 * A reader worker's entry: loads the readers, says it is ready, reads one source and answers.
 * The pool (reader-pool.ts) gives each worker one task and then ends it, so nothing a source
 * left behind (memory, a stuck loop, tesseract's own thread) outlives the task.
 */
import { parentPort } from 'node:worker_threads';
import { AppError } from '../errors.js';
import { htmlToText, imageToText, pdfToText } from './parse.js';
import { decodeText } from './read.js';
import type { ReadTask, ReadAnswer } from './reader-pool.js';

async function read(task: ReadTask): Promise<{ text: string; title: string | null }> {
  const bytes = Buffer.from(task.bytes.buffer, task.bytes.byteOffset, task.bytes.byteLength);
  if (task.kind === 'html') return htmlToText(decodeText(bytes, task.charset));
  return { text: task.kind === 'pdf' ? await pdfToText(bytes) : await imageToText(bytes), title: null };
}

const port = parentPort!;
port.once('message', (task: ReadTask) => {
  read(task).then(
    (done) => port.postMessage({ ok: true, ...done } satisfies ReadAnswer),
    (err: unknown) =>
      port.postMessage(
        (err instanceof AppError ? { ok: false, refused: err.message } : { ok: false, failed: err instanceof Error ? `${err.name}: ${err.message}` : String(err) }) satisfies ReadAnswer,
      ),
  );
});
port.postMessage({ ready: true } satisfies ReadAnswer);
