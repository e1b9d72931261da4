/**
 * The words an idea's fields go by on its channel: only an email has a
 * "Subject line"; a post opens with a line of its own and an ad or a
 * website banner with a headline.
 */
export interface ChannelWords {
  /** The channel for people ("Social post"). */
  name: string;
  /** What the idea's subjectLine is on this channel. */
  lead: string;
  /** What the idea's body is on this channel. */
  copy: string;
}

const WORDS: Record<string, ChannelWords> = {
  email: { name: 'Email', lead: 'Subject line', copy: 'Email text' },
  social: { name: 'Social post', lead: 'Opening line', copy: 'Post text' },
  ads: { name: 'Ad', lead: 'Headline', copy: 'Ad text' },
  onsite: { name: 'On your website', lead: 'Headline', copy: 'Copy' },
};

/** The words of a channel as the API names it; an unknown one keeps its name and neutral labels. */
export function channelWords(channel: string | undefined): ChannelWords {
  const known = WORDS[(channel ?? '').trim().toLowerCase()];
  return known ?? { name: channel || '—', lead: 'Headline', copy: 'Copy' };
}
