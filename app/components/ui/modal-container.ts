import { createContext } from "react";

/**
 * The open modal's content element (dialog.tsx provides it): popups of fields inside a modal (the
 * date picker's calendar) render there, not at the end of <body>, so they are inside the modal's
 * focus trap, and Escape in them closes them alone. A module of its own, so a field that reads it
 * does not pull the dialog's code into its chunk.
 */
export const ModalContainer = createContext<HTMLElement | null>(null);
