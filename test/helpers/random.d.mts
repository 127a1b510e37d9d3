/** Numbers in [0, 1), the same sequence for the same seed (mulberry32). */
export function mulberry32(seed: number): () => number;
