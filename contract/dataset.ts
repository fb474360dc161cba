/**
 * Which data an answer comes from: the live listings (a live key) or the fixed public
 * sample (a test key, `mboa_test_…`). Said in `meta.dataset` and in the `X-Mboa-Dataset`
 * header of every successful answer, so that a test key's answer is never taken for live data.
 */
import { extendApi } from '@anatine/zod-openapi';
import { z } from 'zod';

export const DATASETS = ['live', 'sample'] as const;

/** The response header that names the dataset (exports, which have no `meta`, included). */
export const DATASET_HEADER = 'X-Mboa-Dataset';

export const ZDataset = extendApi(z.enum(DATASETS), {
  description:
    '`live`: the current listings, read with a live key. `sample`: the fixed public sample that test keys (`mboa_test_…`) read, the same on every call, not the market; never counted in the quota. Also in the `X-Mboa-Dataset` header.',
  example: 'live',
});
