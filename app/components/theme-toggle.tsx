import { Moon, Sun } from "lucide-react";
import { Switch } from "radix-ui";
import { useEffect, useState } from "react";
import { applyTheme, readTheme, type Theme } from "~/platform/theme";

/** The theme in use ('dracula', dark, by default; or 'light'), and a setter that applies and keeps it. */
export function useTheme() {
  const [theme, setTheme] = useState<Theme>("dracula");
  // The boot script already applied the stored theme; mirror it once hydrated.
  useEffect(() => setTheme(readTheme()), []);
  return [
    theme,
    (next: Theme) => {
      applyTheme(next);
      setTheme(next);
    },
  ] as const;
}

/** The theme control: a switch between 'dracula' (dark, default) and 'light', kept in localStorage. */
export function ThemeToggle() {
  const [theme, setTheme] = useTheme();
  const light = theme === "light";
  return (
    // biome-ignore lint/a11y/noLabelWithoutControl: the control is Radix's Switch, a <button role="switch"> inside the label.
    <label className="flex cursor-pointer items-center justify-between gap-3 rounded-md px-3 py-2 hover:bg-surface-2">
      <span className="flex items-center gap-2 text-sm">
        {light ? <Sun className="h-4 w-4" aria-hidden /> : <Moon className="h-4 w-4" aria-hidden />}
        Light theme
      </span>
      <Switch.Root
        checked={light}
        onCheckedChange={(checked) => setTheme(checked ? "light" : "dracula")}
        data-testid="theme-switch"
        className="relative h-6 w-11 shrink-0 rounded-full bg-surface-2 transition-colors data-[state=checked]:bg-primary"
      >
        <Switch.Thumb className="block h-5 w-5 translate-x-0.5 rounded-full bg-foreground transition-transform data-[state=checked]:translate-x-[22px] data-[state=checked]:bg-primary-foreground" />
      </Switch.Root>
    </label>
  );
}
