// The image classifier's thread (uploads/screening.ts starts one per process, on first use):
// nsfwjs' MobileNetV2, whose weights ship inside the nsfwjs package, on TensorFlow.js' WASM
// backend, whose .wasm files ship inside @tensorflow/tfjs-backend-wasm. Nothing is fetched.
// Takes 224x224 RGB pixels, answers the five classes' probabilities, one image at a time.
// Plain JavaScript, so it runs wherever the server runs (under tsx, or a test runner's loader).
import { parentPort } from 'node:worker_threads';
import * as tf from '@tensorflow/tfjs';
import '@tensorflow/tfjs-backend-wasm';
import { load } from 'nsfwjs';

await tf.setBackend('wasm');
await tf.ready();
const model = await load('MobileNetV2', { size: 224 });
parentPort.postMessage({ ready: true, backend: tf.getBackend() });

parentPort.on('message', async ({ id, pixels }) => {
  try {
    const input = tf.tensor3d(pixels, [224, 224, 3], 'int32');
    try {
      const predictions = await model.classify(input, 5);
      const scores = Object.fromEntries(predictions.map((p) => [p.className, p.probability]));
      parentPort.postMessage({ id, scores });
    } finally {
      input.dispose();
    }
  } catch (error) {
    parentPort.postMessage({ id, error: error instanceof Error ? error.message : String(error) });
  }
});
