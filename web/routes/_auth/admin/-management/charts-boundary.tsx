import * as React from "react";

// The charts are an extra under the figures: when their chunk cannot load (a new deploy removed it, the
// connection dropped) or they fail to draw, say so in their place and keep the rest of the dashboard,
// instead of letting the route's error page replace everything.

type State = { failed: boolean };

export class ChartsBoundary extends React.Component<{ children: React.ReactNode }, State> {
  override state: State = { failed: false };

  static getDerivedStateFromError(): State {
    return { failed: true };
  }

  override componentDidCatch(error: unknown) {
    console.error(error);
  }

  override render() {
    if (!this.state.failed) return this.props.children;
    return (
      <p role="status" className="rounded-xl border bg-card p-4 text-sm text-muted-foreground" data-slot="charts-failed">
        De grafieken konden niet worden geladen. Laad de pagina opnieuw om het nog eens te proberen.
      </p>
    );
  }
}
