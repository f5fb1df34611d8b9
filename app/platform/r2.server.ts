/** R2's most keys one list or delete call takes. */
const KEYS_PER_CALL = 1000;

/** Deletes every object of `bucket` under `prefix`, a list and a delete call per thousand keys; how many. */
export async function deleteObjectsUnder(bucket: R2Bucket, prefix: string): Promise<number> {
  let deleted = 0;
  let cursor: string | undefined;
  do {
    const listed = await bucket.list({ prefix, cursor, limit: KEYS_PER_CALL });
    const keys = listed.objects.map((o) => o.key);
    if (keys.length > 0) await bucket.delete(keys);
    deleted += keys.length;
    cursor = listed.truncated ? listed.cursor : undefined;
  } while (cursor);
  return deleted;
}
