/** `/review/duplicates`: recent groups of duplicate listings, to split a wrong one or join two. */
import type { FC } from "hono/jsx";
import type { GroupListing } from "../../db/duplicate-groups-view.ts";
import { CsrfField, Layout } from "../components/layout.tsx";
import { ContributedLink } from "../components/contributed-link.tsx";
import { DataTable } from "../components/data-table.tsx";
import type { PageContext } from "../page-context.ts";
import type { Viewer } from "../../accounts/viewer.ts";
import { formatInstant } from "../event-times.ts";

export interface ReviewDuplicatesPageProps {
  page: PageContext;
  viewer: Viewer;
  groups: GroupListing[][];
  notices: string[];
}

const SplitButton: FC<{ viewer: Viewer; listing: GroupListing; canonicalId: string }> = (
  { viewer, listing, canonicalId },
) => (
  <form method="post" action={`/review/duplicates/split`} class="inline-form">
    <CsrfField token={viewer.csrfToken} />
    <input type="hidden" name="id" value={listing.id} />
    <input type="hidden" name="other_id" value={canonicalId} />
    <button type="submit" class="secondary">Not the same: split</button>
  </form>
);

const Group: FC<{ viewer: Viewer; group: GroupListing[]; n: number }> = (
  { viewer, group, n },
) => {
  const canonical = group.find((l) => l.canonical) ?? group[0];
  return (
    <DataTable
      label={`Group ${n}: ${canonical.title}`}
      caption={canonical.title}
      columns={["Listing", "When and where", "Contributor", "Decision"]}
    >
      {group.map((l) => (
        <tr key={l.id}>
          <td>
            <a href={`/events/${l.id}`}>{l.title}</a>{" "}
            <span class="hint">
              ({l.platform}, <ContributedLink href={l.source_url}>source</ContributedLink>)
            </span>
            <br />
            <code>{l.id}</code>
          </td>
          <td>
            {formatInstant(l.starts_at.toISOString())}{" "}
            {[l.city, l.country].filter(Boolean).join(", ")}
          </td>
          <td>{l.contributor}</td>
          <td>
            {l.canonical ? "Shown (canonical)" : (
              <>
                {l.link === "same" ? "Joined by an operator. " : null}
                <SplitButton viewer={viewer} listing={l} canonicalId={canonical.id} />
              </>
            )}
          </td>
        </tr>
      ))}
    </DataTable>
  );
};

const JoinForm: FC<{ viewer: Viewer }> = ({ viewer }) => (
  <form method="post" action="/review/duplicates/join" class="form-card stack">
    <CsrfField token={viewer.csrfToken} />
    <label>
      One listing's id <input name="id" required />
    </label>
    <label>
      The other listing's id <input name="other_id" required />
    </label>
    <button type="submit">The same event: join</button>
  </form>
);

export const ReviewDuplicatesPage: FC<ReviewDuplicatesPageProps> = (
  { page, viewer, groups, notices },
) => (
  <Layout page={page} title="Duplicate listings">
    <h1>Duplicate listings</h1>
    <p>
      Listings found to be the same real-world event; visitors see the canonical one, with the
      others as "also listed on". Split a wrong group, or join two listings detection missed: your
      decision outlasts re-pushes. Listing ids are on each event's API answer and in these tables.
    </p>
    {notices.map((notice) => <p key={notice} class="notice ok" role="status">{notice}</p>)}
    {groups.length === 0
      ? <p class="empty">No listings are grouped yet.</p>
      : groups.map((group, i) => (
        <Group
          key={group[0].id}
          viewer={viewer}
          group={group}
          n={i + 1}
        />
      ))}
    <section aria-labelledby="join-heading" class="stack">
      <h2 id="join-heading">Join two listings</h2>
      <JoinForm viewer={viewer} />
    </section>
  </Layout>
);
