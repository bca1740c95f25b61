// The buttons that start following logs as they are written: the link's, or files the person
// chooses.

const FOLLOW = {
  "follow-src": {
    label: "Follow the link's logs",
    title: "Follow the link's logs as they are written: asked for again each second, from where the page stopped",
  },
  "follow-file": { label: "Follow a file…", title: "Choose a log that is being written: it is read again each second" },
} as const;

export function FollowButton({ testId, onClick }: { testId: keyof typeof FOLLOW; onClick: () => void }) {
  const f = FOLLOW[testId];
  return (
    <button type="button" data-testid={testId} className="follow-file" onClick={onClick} title={f.title}>
      {f.label}
    </button>
  );
}
