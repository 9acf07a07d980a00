/**
 * Builds a tiny BERT-shaped sentence-embedding model folder in the Hugging Face layout
 * (`config.json`, `tokenizer.json`, `tokenizer_config.json`, `onnx/model.onnx`), so the
 * `transformers` embedder's real loading code runs offline in tests. The ONNX graph is one Gather:
 * `last_hidden_state[b, s] = embeddings[input_ids[b, s]]`, with a fixed pseudo-random vector per
 * word; mean pooling then makes texts that share words similar. The protobuf is written by hand
 * (a few message types of onnx.proto), as no ONNX writer is needed anywhere else.
 */
import { createHash } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

// --- protobuf wire format: varints and length-delimited fields are all these messages need.
function varint(value: number | bigint): number[] {
  let v = BigInt(value);
  const out: number[] = [];
  do {
    let byte = Number(v & 0x7fn);
    v >>= 7n;
    if (v > 0n) byte |= 0x80;
    out.push(byte);
  } while (v > 0n);
  return out;
}
const tag = (field: number, wire: number) => varint((field << 3) | wire);
const int = (field: number, value: number | bigint) => [...tag(field, 0), ...varint(value)];
const bytes = (field: number, data: Uint8Array | number[]) => [...tag(field, 2), ...varint(data.length), ...data];
const str = (field: number, text: string) => bytes(field, [...Buffer.from(text, 'utf8')]);
const msg = (field: number, parts: number[][]) => bytes(field, parts.flat());

const FLOAT = 1;
const INT64 = 7;

/** ValueInfoProto with a symbolic or fixed shape. */
function valueInfo(field: number, name: string, elemType: number, dims: Array<string | number>): number[] {
  const dim = dims.map((d) => msg(1, [typeof d === 'number' ? int(1, d) : str(2, d)]));
  const tensorType = msg(1, [int(1, elemType), msg(2, dim)]);
  return msg(field, [str(1, name), msg(2, [tensorType])]);
}

function onnxModel(options: { vocabSize: number; dimensions: number; table: Float32Array }): Uint8Array {
  const { vocabSize, dimensions, table } = options;
  const initializer = msg(5, [
    int(1, vocabSize),
    int(1, dimensions),
    int(2, FLOAT),
    str(8, 'embeddings'),
    bytes(9, new Uint8Array(table.buffer, table.byteOffset, table.byteLength)),
  ]);
  const gather = msg(1, [str(1, 'embeddings'), str(1, 'input_ids'), str(2, 'last_hidden_state'), str(3, 'lookup'), str(4, 'Gather')]);
  const graph = msg(7, [
    gather,
    str(2, 'tiny-bert'),
    initializer,
    valueInfo(11, 'input_ids', INT64, ['batch_size', 'sequence_length']),
    valueInfo(11, 'attention_mask', INT64, ['batch_size', 'sequence_length']),
    valueInfo(12, 'last_hidden_state', FLOAT, ['batch_size', 'sequence_length', dimensions]),
  ]);
  return Uint8Array.from([...int(1, 8), ...str(2, 'strata-test'), ...graph, ...msg(8, [str(1, ''), int(2, 13)])]);
}

function wordVector(word: string, dimensions: number): number[] {
  const digest = createHash('sha256').update(word).digest();
  return Array.from({ length: dimensions }, (_, i) => (digest[i % digest.length]! / 255 - 0.5) * (1 + (i % 3)));
}

const SPECIAL = ['[PAD]', '[UNK]', '[CLS]', '[SEP]', '[MASK]'];

/** Writes the model folder and returns its path (`<dir>/<name>`). */
export async function writeTinyEmbeddingModel(options: {
  dir: string;
  name?: string;
  words: string[];
  dimensions?: number;
}): Promise<string> {
  const dimensions = options.dimensions ?? 16;
  const vocab = [...SPECIAL, ...new Set(options.words.map((w) => w.toLowerCase()))];
  const table = new Float32Array(vocab.length * dimensions);
  vocab.forEach((word, i) => table.set(wordVector(word, dimensions), i * dimensions));
  const folder = join(options.dir, options.name ?? 'tiny-bert');
  await mkdir(join(folder, 'onnx'), { recursive: true });
  await writeFile(join(folder, 'onnx', 'model.onnx'), onnxModel({ vocabSize: vocab.length, dimensions, table }));
  await writeFile(
    join(folder, 'config.json'),
    JSON.stringify({ model_type: 'bert', architectures: ['BertModel'], hidden_size: dimensions, vocab_size: vocab.length }),
  );
  await writeFile(
    join(folder, 'tokenizer_config.json'),
    JSON.stringify({
      tokenizer_class: 'BertTokenizer',
      do_lower_case: true,
      model_max_length: 128,
      cls_token: '[CLS]',
      sep_token: '[SEP]',
      pad_token: '[PAD]',
      unk_token: '[UNK]',
      mask_token: '[MASK]',
    }),
  );
  const special = (content: string) => ({
    id: vocab.indexOf(content),
    content,
    single_word: false,
    lstrip: false,
    rstrip: false,
    normalized: false,
    special: true,
  });
  await writeFile(
    join(folder, 'tokenizer.json'),
    JSON.stringify({
      version: '1.0',
      truncation: null,
      padding: null,
      added_tokens: SPECIAL.map(special),
      normalizer: { type: 'BertNormalizer', clean_text: true, handle_chinese_chars: true, strip_accents: null, lowercase: true },
      pre_tokenizer: { type: 'BertPreTokenizer' },
      post_processor: {
        type: 'TemplateProcessing',
        single: [
          { SpecialToken: { id: '[CLS]', type_id: 0 } },
          { Sequence: { id: 'A', type_id: 0 } },
          { SpecialToken: { id: '[SEP]', type_id: 0 } },
        ],
        pair: [
          { SpecialToken: { id: '[CLS]', type_id: 0 } },
          { Sequence: { id: 'A', type_id: 0 } },
          { SpecialToken: { id: '[SEP]', type_id: 0 } },
          { Sequence: { id: 'B', type_id: 1 } },
          { SpecialToken: { id: '[SEP]', type_id: 1 } },
        ],
        special_tokens: Object.fromEntries(['[CLS]', '[SEP]'].map((t) => [t, { id: t, ids: [vocab.indexOf(t)], tokens: [t] }])),
      },
      decoder: { type: 'WordPiece', prefix: '##', cleanup: true },
      model: {
        type: 'WordPiece',
        unk_token: '[UNK]',
        continuing_subword_prefix: '##',
        max_input_chars_per_word: 100,
        vocab: Object.fromEntries(vocab.map((w, i) => [w, i])),
      },
    }),
  );
  return folder;
}
