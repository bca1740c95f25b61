// First: the engine worker starts before the rest of the page's modules run (page-engine.ts).
import "./ui/state/page-engine";
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { App } from "./App";
import "./styles.css";

createRoot(document.getElementById("root")!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
