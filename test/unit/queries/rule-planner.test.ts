import { describe, expect, it } from 'vitest';
import type { QueryPlan } from '../../../functions/core/sources/types.js';
import { planFromPrompt } from '../../../functions/core/queries/rule-planner.js';

// Wednesday.
const now = new Date('2026-03-18T12:00:00.000Z');
const NOW = '2026-03-18T12:00:00.000Z';
const WEEK_AGO = '2026-03-11T12:00:00.000Z';

const plan = (overrides: Partial<QueryPlan>): QueryPlan => ({
  keywords: [],
  phrases: [],
  hashtags: [],
  mentions: [],
  exclude: [],
  since: WEEK_AGO,
  until: NOW,
  ...overrides,
});

describe('planFromPrompt: terms', () => {
  it.each<[string, Partial<QueryPlan>]>([
    ['Find posts about "electric vehicles" #EV @elonmusk -tesla', { phrases: ['electric vehicles'], hashtags: ['EV'], mentions: ['elonmusk'], exclude: ['tesla'] }],
    ['What are people saying about AI regulation?', { keywords: ['ai', 'regulation'] }],
    ['show me tweets mentioning climate change', { keywords: ['climate', 'change'] }],
    ['rust vs go -"hello world" -Java', { keywords: ['rust', 'go'], exclude: ['hello world', 'java'] }],
    ['Apple\'s new iPhone 17, thoughts?', { keywords: ['apple', 'new', 'iphone', '17', 'thoughts'] }],
    ['ai ai AI Ai "Foo Bar" "foo  bar" #Tag #tag @Dev @dev', { keywords: ['ai'], phrases: ['Foo Bar'], hashtags: ['Tag'], mentions: ['Dev'] }],
    ['“smart quotes” and covid-19 vaccines', { keywords: ['covid-19', 'vaccines'], phrases: ['smart quotes'] }],
    ['excluding crypto, find web3 news but not "nft drop"', { keywords: ['web3', 'news'], exclude: ['crypto', 'nft drop'] }],
    ['"b phrase" https://a.example/x "a phrase" -z excluding y -x', { phrases: ['b phrase', 'https://a.example/x', 'a phrase'], exclude: ['z', 'y', 'x'] }],
    ['e-bikes -e-scooters', { keywords: ['e-bikes'], exclude: ['e-scooters'] }],
    ['#1 fans of #AI2026 and #_ok', { keywords: ['1', 'fans'], hashtags: ['AI2026', '_ok'] }],
    ['posts by @nasa.gov. and @esa_', { mentions: ['nasa.gov', 'esa_'] }],
    ['write to press@acme.com about the launch', { keywords: ['write', 'launch'], phrases: ['press@acme.com'] }],
    ['reviews linking https://example.com/a?b=1. please', { keywords: ['reviews', 'linking'], phrases: ['https://example.com/a?b=1'] }],
    ['Reddit threads on kubernetes from r/devops', { keywords: ['kubernetes', 'devops'] }],
    ['what do folks on X and on Instagram think about Nike', { keywords: ['nike'] }],
    ['Instagram outage', { keywords: ['instagram', 'outage'] }],
    ['find find find', {}],
    ['', {}],
    ['   ', {}],
  ])('%j', (prompt, expected) => {
    expect(planFromPrompt(prompt, now)).toStrictEqual(plan(expected));
  });
});

describe('planFromPrompt: language', () => {
  it.each<[string, Partial<QueryPlan>]>([
    ['futbol posts in Spanish', { keywords: ['futbol'], language: 'es' }],
    ['elections written in french', { keywords: ['elections'], language: 'fr' }],
    ['Bundesliga in German language', { keywords: ['bundesliga'], language: 'de' }],
    ['anime in Japanese or in Korean', { keywords: ['anime'], language: 'ja' }],
    ['Spanish cuisine', { keywords: ['spanish', 'cuisine'] }],
    ['news in Portuguese from @g1', { keywords: ['news'], mentions: ['g1'], language: 'pt' }],
  ])('%j', (prompt, expected) => {
    expect(planFromPrompt(prompt, now)).toStrictEqual(plan(expected));
  });
});

describe('planFromPrompt: time phrases (now = Wed 2026-03-18T12:00Z)', () => {
  it.each<[string, string, string]>([
    ['bitcoin last week', WEEK_AGO, NOW],
    ['bitcoin past week', WEEK_AGO, NOW],
    ['bitcoin in the past 24 hours', '2026-03-17T12:00:00.000Z', NOW],
    ['bitcoin last 24h', '2026-03-17T12:00:00.000Z', NOW],
    ['bitcoin last 90m', '2026-03-18T10:30:00.000Z', NOW],
    ['bitcoin last 3 days', '2026-03-15T12:00:00.000Z', NOW],
    ['bitcoin over the past two weeks', '2026-03-04T12:00:00.000Z', NOW],
    ['bitcoin over the past few days', '2026-03-15T12:00:00.000Z', NOW],
    ['bitcoin past hour', '2026-03-18T11:00:00.000Z', NOW],
    ['bitcoin last month', '2026-02-18T12:00:00.000Z', NOW],
    ['bitcoin last 6 months', '2025-09-18T12:00:00.000Z', NOW],
    ['bitcoin last year', '2025-03-18T12:00:00.000Z', NOW],
    ['bitcoin yesterday', '2026-03-17T00:00:00.000Z', '2026-03-18T00:00:00.000Z'],
    ['bitcoin today', '2026-03-18T00:00:00.000Z', NOW],
    ['bitcoin this week', '2026-03-16T00:00:00.000Z', NOW],
    ['bitcoin this month', '2026-03-01T00:00:00.000Z', NOW],
    ['bitcoin this year', '2026-01-01T00:00:00.000Z', NOW],
    ['bitcoin since March', '2026-03-01T00:00:00.000Z', NOW],
    ['bitcoin since April', '2025-04-01T00:00:00.000Z', NOW],
    ['bitcoin since March 20', '2025-03-20T00:00:00.000Z', NOW],
    ['bitcoin since 5 Jan', '2026-01-05T00:00:00.000Z', NOW],
    ['bitcoin since 2026-01-05', '2026-01-05T00:00:00.000Z', NOW],
    ['bitcoin since January 5, 2025', '2025-01-05T00:00:00.000Z', NOW],
    ['bitcoin since Monday', '2026-03-16T00:00:00.000Z', NOW],
    ['bitcoin since yesterday', '2026-03-17T00:00:00.000Z', NOW],
    ['bitcoin since 2025', '2025-01-01T00:00:00.000Z', NOW],
    ['bitcoin between February 1 and March 10', '2026-02-01T00:00:00.000Z', '2026-03-11T00:00:00.000Z'],
    ['bitcoin between 2026-01-05 and 2026-01-07', '2026-01-05T00:00:00.000Z', '2026-01-08T00:00:00.000Z'],
    ['bitcoin between December and February', '2025-12-01T00:00:00.000Z', '2026-03-01T00:00:00.000Z'],
    ['bitcoin between March and February', '2025-03-01T00:00:00.000Z', '2026-03-01T00:00:00.000Z'],
    ['bitcoin from Jan 10 to Jan 20', '2026-01-10T00:00:00.000Z', '2026-01-21T00:00:00.000Z'],
    ['bitcoin between March 1 and today', '2026-03-01T00:00:00.000Z', NOW],
    ['bitcoin in May', '2025-05-01T00:00:00.000Z', '2025-06-01T00:00:00.000Z'],
    ['bitcoin in March', '2026-03-01T00:00:00.000Z', NOW],
    ['bitcoin in 2025', '2025-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z'],
    ['bitcoin on 2026-02-29', WEEK_AGO, NOW], // no such date: ignored, default window
    ['bitcoin on March 2', '2026-03-02T00:00:00.000Z', '2026-03-03T00:00:00.000Z'],
    ['bitcoin before March 1', '2026-02-22T00:00:00.000Z', '2026-03-01T00:00:00.000Z'],
    ['bitcoin since 2027-01-01', WEEK_AGO, NOW], // future: ignored
    ['bitcoin in 2027', WEEK_AGO, NOW],
  ])('%j', (prompt, since, until) => {
    expect(planFromPrompt(prompt, now)).toStrictEqual(plan({ keywords: ['bitcoin'], since, until }));
  });

  it('the leftmost time phrase wins', () => {
    expect(planFromPrompt('yesterday, or else last 3 days, bitcoin', now)).toStrictEqual(
      plan({ keywords: ['bitcoin'], since: '2026-03-17T00:00:00.000Z', until: '2026-03-18T00:00:00.000Z' }),
    );
  });

  it('since <month> on the first of that month includes that month', () => {
    expect(planFromPrompt('since march', new Date('2026-03-01T06:00:00Z')).since).toBe('2026-03-01T00:00:00.000Z');
    expect(planFromPrompt('since march', new Date('2026-02-28T23:59:59Z')).since).toBe('2025-03-01T00:00:00.000Z');
  });

  it('last month clamps to the end of a shorter month', () => {
    expect(planFromPrompt('news last month', new Date('2026-03-31T08:00:00Z')).since).toBe('2026-02-28T08:00:00.000Z');
  });

  it('an explicit window wins over time phrases, which are still removed', () => {
    const window = { since: '2026-01-01T00:00:00.000Z', until: '2026-01-02T00:00:00.000Z' };
    expect(planFromPrompt('bitcoin since March in the past 24 hours', now, window)).toStrictEqual(
      plan({ keywords: ['bitcoin'], ...window }),
    );
  });
});

describe('planFromPrompt: full prompts', () => {
  it.each<[string, Partial<QueryPlan>]>([
    [
      'Find posts about "electric vehicles" #EV @elonmusk -tesla from last week in Spanish',
      { phrases: ['electric vehicles'], hashtags: ['EV'], mentions: ['elonmusk'], exclude: ['tesla'], language: 'es' },
    ],
    [
      'What are people on Reddit saying about the Steam Deck since 2026-01-05, excluding "refund" -scam',
      { keywords: ['steam', 'deck'], exclude: ['refund', 'scam'], since: '2026-01-05T00:00:00.000Z' },
    ],
    [
      'Show me TikTok videos with #booktok in English from the last 2 weeks',
      { hashtags: ['booktok'], language: 'en', since: '2026-03-04T12:00:00.000Z' },
    ],
    [
      'Latest LinkedIn posts from @satyanadella about "Copilot" and agents yesterday',
      {
        keywords: ['agents'],
        phrases: ['Copilot'],
        mentions: ['satyanadella'],
        since: '2026-03-17T00:00:00.000Z',
        until: '2026-03-18T00:00:00.000Z',
      },
    ],
    [
      'How do users feel about the new pixel camera between Feb 1 and Feb 15?',
      { keywords: ['new', 'pixel', 'camera'], since: '2026-02-01T00:00:00.000Z', until: '2026-02-16T00:00:00.000Z' },
    ],
  ])('%j', (prompt, expected) => {
    expect(planFromPrompt(prompt, now)).toStrictEqual(plan(expected));
  });

  it('is deterministic and does not depend on the wall clock', () => {
    const prompt = 'Find posts about "x y" #a @b -c since March in French';
    const a = planFromPrompt(prompt, now);
    const b = planFromPrompt(prompt, new Date(now.getTime()));
    expect(a).toStrictEqual(b);
    expect(JSON.stringify(a)).toBe(JSON.stringify(planFromPrompt(prompt, now)));
  });
});
