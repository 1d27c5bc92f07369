import { RouterProvider } from "@tanstack/react-router";
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";

import { installLinkInterception } from "@/lib/link-interception";
import { createRouter } from "./router";
import "./styles.css";

// The SPA: every route except the five prerendered public pages, which have their own, lighter entry
// (web/public-entry.tsx). It starts from the empty shell (dist/web/app.html).

const container = document.getElementById("root");
if (!container) throw new Error("Missing #root element in index.html");

const router = createRouter();
installLinkInterception((href) => void router.navigate({ href }));

createRoot(container).render(
  <StrictMode>
    <RouterProvider router={router} />
  </StrictMode>,
);
