/** Test helpers: an integration's publication and the message a refused call fails with. */

/** What `publishIntegration` needs besides the name, for organization `org` (`extra` adds or overrides fields). */
export const publication = (org: string, extra: Record<string, unknown> = {}) => ({
  title: 'My integration',
  description: 'Does things',
  script: 'export default {}',
  scopes: ['space:content:read' as const],
  organization: org,
  ...extra,
});

/** The message a call fails with; fails the test when it succeeds. */
export const failureMessage = async (p: Promise<unknown>) =>
  p.then(
    () => {
      throw new Error('expected a failure');
    },
    (e: Error) => e.message,
  );
