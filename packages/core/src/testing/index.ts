/** Test support of the domain: the fake twin of the dependencies and its in-memory providers. */
export { type FakeDeps, fakeDeps } from './fakeDeps';
export { FAKE_EMBEDDING_DIMENSIONS, FakeGateway, FakeMarketplace, type FakeMarketplacePurchase, FakeModel } from './fakeProviders';
export { FakeSms } from './fakeSms';
