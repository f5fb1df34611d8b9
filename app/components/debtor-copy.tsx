import { Fragment, type ReactNode } from "react";
import type { MessageValues, Translate } from "~/domain/i18n";

/**
 * A message with parts that are markup (a name in bold, an address that may wrap anywhere): the
 * translation places them, so each language puts them where its sentence needs them.
 */
export function richText<K extends string>(
  t: Translate<K>,
  key: K,
  values: MessageValues,
  slots: Record<string, ReactNode>,
): ReactNode[] {
  const names = Object.keys(slots);
  const marked: MessageValues = { ...values };
  names.forEach((name, i) => {
    marked[name] = `\uE000${i}\uE000`;
  });
  return t(key, marked)
    .split(/\uE000(\d+)\uE000/)
    .map((part, i) =>
      // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one sentence, always in this order.
      i % 2 === 1 ? <Fragment key={i}>{slots[names[Number(part)] ?? ""]}</Fragment> : part,
    );
}
