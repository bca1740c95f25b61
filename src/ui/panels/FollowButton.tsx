// The buttons that start following logs as they are written: the link's, or files the person
// chooses.

const FOLLOW = {
  link: {
    testId: "follow-src",
    label: "Follow the link's logs",
    title: "Follow the link's logs as they are written: asked for again each second, from where the page stopped",
  },
  files: { testId: "follow-file", label: "Follow a file…", title: "Choose a log that is being written: it is read again each second" },
} as const;

export function FollowButton({ what, onClick }: { what: keyof typeof FOLLOW; onClick: () => void }) {
  const f = FOLLOW[what];
  return (
    <button type="button" data-testid={f.testId} className="follow-file" onClick={onClick} title={f.title}>
      {f.label}
    </button>
  );
}
