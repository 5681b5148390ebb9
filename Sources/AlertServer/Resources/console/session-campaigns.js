// The operator view's campaigns: `GET /v1/campaigns`, newest first, a page at a time, each
// with a button that recalls it (`POST /v1/campaigns/{id}/recall`) once asked to confirm.
import { h } from "./dom.js";
import * as operator from "./operator-api.js";

/** Wires `button` to list the campaigns into `table`; `page` is session.js's (token, status line). */
export function campaignList(button, table, page) {
  const body = table.querySelector("tbody");
  let next = null;
  const more = h("button", { type: "button", text: "Older campaigns", hidden: true });
  table.after(more);

  async function load(before) {
    if (!page.token()) return page.say("Give the admin token to list the campaigns.", true);
    try {
      const answer = await operator.campaigns(page.token(), before);
      if (!before) body.replaceChildren();
      body.append(...answer.campaigns.map(row));
      if (!body.children.length) body.append(h("tr", {}, h("td", { colspan: 6, text: "No campaign yet." })));
      next = answer.next || null;
      more.hidden = !next;
      table.hidden = false;
      page.say(`${body.querySelectorAll("tr[data-campaign]").length} campaigns listed.`);
    } catch (error) {
      page.report("Listing the campaigns", error);
    }
  }

  function row(campaign) {
    const queues = campaign.alert || `an ad-hoc ${campaign.kind || "spec"}`;
    const reached = `${campaign.targeted ?? 0} reached, ${campaign.queued ?? 0} queued`;
    const state = h("td", { text: campaign.state });
    const recall = h("button", {
      type: "button", text: "Recall", "aria-label": `Recall campaign ${campaign.id}`,
      disabled: campaign.state === "recalled",
      onclick: async () => {
        if (!window.confirm(`Recall campaign ${campaign.id}? Its live copies are taken back from every session.`)) return;
        recall.disabled = true;
        try {
          const answer = await operator.recallCampaign(page.token(), campaign.id);
          state.textContent = "recalled";
          await page.refresh();
          page.say(`Recalled ${answer.id}: ${answer.cancelled} cancelled, ${answer.withdrawn} withdrawn.`);
        } catch (error) {
          recall.disabled = false;
          page.report(`Recalling ${campaign.id}`, error);
        }
      },
    });
    return h("tr", { "data-campaign": campaign.id },
      h("th", { scope: "row" }, h("code", { text: campaign.id })), state, h("td", { text: queues }),
      h("td", { text: campaign.createdAt }), h("td", { text: reached }), h("td", {}, recall));
  }

  button.addEventListener("click", () => load(null));
  more.addEventListener("click", () => load(next));
}
