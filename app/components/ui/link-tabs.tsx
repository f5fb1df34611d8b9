import { type KeyboardEvent, type ReactNode, useId, useRef, useState } from "react";
import { Link } from "react-router";

/**
 * Tabs whose tabs are links to the page of each tab (the current one comes from the URL): the
 * WAI-ARIA tabs pattern, as Radix's Tabs render it, without Radix (the settings page must stay
 * small). A vertical tablist: one tab stop, ArrowUp/ArrowDown move
 * between tabs (wrapping), Home and End go to the first and last, Enter follows the link; the
 * panel is labelled by the current tab and focusable. `data-state` is "active" on the current
 * tab and its panel, as with Radix, for styling.
 */
export function LinkTabs<Id extends string>({
  label,
  tabs,
  current,
  className,
  listClassName,
  tabClassName,
  panelClassName,
  children,
}: {
  label: string;
  tabs: readonly { id: Id; to: string; content: ReactNode }[];
  current: Id;
  className?: string;
  listClassName?: string;
  tabClassName?: string;
  panelClassName?: string;
  children: ReactNode;
}) {
  const id = useId();
  const tabId = (tab: Id) => `${id}-tab-${tab}`;
  const panelId = `${id}-panel`;
  const links = useRef<(HTMLAnchorElement | null)[]>([]);
  // The tab that Tab reaches in the list: the current one, or the last one focused.
  const currentIndex = Math.max(
    0,
    tabs.findIndex((t) => t.id === current),
  );
  const [stop, setStop] = useState({ current, index: currentIndex });
  const stopIndex = stop.current === current ? stop.index : currentIndex;

  const onKeyDown = (event: KeyboardEvent, index: number) => {
    const last = tabs.length - 1;
    const next =
      event.key === "ArrowDown"
        ? index === last
          ? 0
          : index + 1
        : event.key === "ArrowUp"
          ? index === 0
            ? last
            : index - 1
          : event.key === "Home"
            ? 0
            : event.key === "End"
              ? last
              : null;
    if (next === null || event.metaKey || event.ctrlKey || event.altKey || event.shiftKey) return;
    event.preventDefault();
    links.current[next]?.focus();
  };

  return (
    <div data-orientation="vertical" className={className}>
      <div role="tablist" aria-label={label} aria-orientation="vertical" className={listClassName}>
        {tabs.map((tab, index) => (
          <Link
            key={tab.id}
            ref={(element) => {
              links.current[index] = element;
            }}
            to={tab.to}
            id={tabId(tab.id)}
            role="tab"
            aria-selected={tab.id === current}
            aria-controls={tab.id === current ? panelId : undefined}
            data-state={tab.id === current ? "active" : "inactive"}
            data-orientation="vertical"
            tabIndex={index === stopIndex ? 0 : -1}
            onFocus={() => setStop({ current, index })}
            onKeyDown={(event) => onKeyDown(event, index)}
            className={tabClassName}
          >
            {tab.content}
          </Link>
        ))}
      </div>
      <div
        role="tabpanel"
        id={panelId}
        aria-labelledby={tabId(current)}
        data-state="active"
        data-orientation="vertical"
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a tabpanel is a tab stop (WAI-ARIA tabs pattern, as Radix renders it).
        tabIndex={0}
        className={panelClassName}
      >
        {children}
      </div>
    </div>
  );
}
