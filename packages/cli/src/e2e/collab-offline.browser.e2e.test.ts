import type { WebSocketRoute } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { hasChromium, useChromium } from './browser.ts';
import { useMailedInstance } from './mailbox.ts';

// Issue 41, item 3: a writer whose connection is lost keeps editing; what they type is kept in the browser's
// IndexedDB (app/src/editor/collab.ts), survives a reload made before the connection is back, and is merged with
// the other writer's edits once it is. The live socket is cut by routing it through the test (Playwright's
// `routeWebSocket`: `setOffline` leaves WebSockets open), the page's HTTP by `setOffline`.

/** Ann's instance, the members' signed-in pages (watched for CSP violations) and /v1 calls. */
const { p, acme, signedIn, v1 } = useMailedInstance();

describe.skipIf(!hasChromium)('offline editing in the app, in Chromium', () => {
  const browser = useChromium();

  it("keeps what a writer typed offline across a reload, and merges it with the other writer's on reconnect", {
    timeout: 180_000,
  }, async () => {
    const space = (await v1(acme.token, 'POST', `/orgs/${acme.organization.id}/spaces`, { title: 'Trips' })).id;
    const invited = await v1(acme.token, 'POST', `/orgs/${acme.organization.id}/invites`, {
      emails: [{ email: 'bob@acme.io', role: 'edit' }],
    });
    await p.awaitMembers(invited.users);
    const cr = await v1(acme.token, 'POST', `/spaces/${space}/change-requests`, { subject: 'Offline' });
    await v1(acme.token, 'POST', `/spaces/${space}/change-requests/${cr.id}/content`, {
      changes: [{ operation: 'insert_page', title: 'Notes', document: { markdown: 'Written before.\n' } }],
    });
    const url = `${p.url}/o/${acme.organization.id}/s/${space}/~/changes/${cr.number}/notes?edit`;
    const ann = await signedIn(browser, 'ann@acme.io');
    const bob = await signedIn(browser, 'bob@acme.io');

    // Ann's live socket goes through the test: while `online` is false it is closed, and so is every new one (a
    // socket not connected to the server opens, mocked, and is closed at once: the provider retries every second).
    let online = true;
    const sockets = new Set<WebSocketRoute>();
    await ann.page.routeWebSocket(/\/v1\/collab/, (ws) => {
      if (!online) return void ws.close({ code: 4000, reason: 'offline' });
      ws.connectToServer();
      sockets.add(ws);
      ws.onClose(() => sockets.delete(ws));
    });
    const live = 'Live: other writers of this change request see your changes';
    for (const w of [ann, bob]) {
      await w.page.goto(url);
      await w.page.getByText(live).waitFor();
      await w.page.getByRole('textbox', { name: 'Content of Notes' }).getByText('Written before.').waitFor();
    }
    const annText = () => ann.page.getByRole('textbox', { name: 'Content of Notes' });
    const bobText = bob.page.getByRole('textbox', { name: 'Content of Notes' });

    // Ann goes offline and types; Bob, online, types too.
    online = false;
    await ann.page.context().setOffline(true);
    for (const ws of [...sockets]) await ws.close({ code: 4000, reason: 'offline' });
    await ann.page.getByText('Offline: reconnecting…').waitFor();
    await annText().getByText('Written before.').click();
    await ann.page.keyboard.press('End');
    await ann.page.keyboard.type(' Typed offline.');
    await bobText.getByText('Written before.').click();
    await bob.page.keyboard.press('End');
    await bob.page.keyboard.type(' Bob online.');
    await bobText.getByText('Written before. Bob online.').waitFor();
    // IndexedDB writes each update as it comes: give it a moment, then reload (HTTP back, the socket still cut).
    await ann.page.waitForTimeout(1_000);
    await ann.page.context().setOffline(false);
    await ann.page.reload();
    await annText().getByText('Written before. Typed offline.').waitFor({ timeout: 30_000 });
    expect(await bobText.textContent()).not.toContain('Typed offline');

    // The socket is back: both writers' edits are merged, on both pages, and into the change request.
    online = true;
    for (const text of [annText(), bobText]) {
      await text.getByText(/Typed offline\./).waitFor({ timeout: 30_000 });
      await text.getByText(/Bob online\./).waitFor({ timeout: 30_000 });
    }
    // The same text on both pages (the other writer's caret and name left out).
    const withoutCarets = (text: ReturnType<typeof annText>) =>
      text.evaluate((el) => {
        const copy = el.cloneNode(true) as typeof el;
        copy.querySelectorAll('.collaboration-carets__caret').forEach((caret) => caret.remove());
        return copy.textContent;
      });
    expect(await withoutCarets(annText())).toBe(await withoutCarets(bobText));
    expect(await withoutCarets(bobText)).toMatch(/^Written before\.( Typed offline\.| Bob online\.){2}$/);
    expect([...ann.violations, ...bob.violations]).toEqual([]);
    await ann.page.getByText('Saved', { exact: true }).waitFor({ timeout: 20_000 });
    await ann.page.close();
    await bob.page.close();
    await expect
      .poll(
        async () =>
          (await v1(acme.token, 'GET', `/spaces/${space}/change-requests/${cr.id}/content/path/notes?format=markdown`))
            .markdown,
        { timeout: 30_000, interval: 500 },
      )
      .toMatch(/Written before\.( Typed offline\.| Bob online\.){2}/);
  });
});
