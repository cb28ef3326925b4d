/** Offers (`view_offer`, `change_offer`): the advertised codes; a row opens its title and advertising. */
import StyleIcon from '@mui/icons-material/Style';
import { OfferEdit } from './OfferEdit';
import { OfferList } from './OfferList';

export default { list: OfferList, edit: OfferEdit, icon: StyleIcon, recordRepresentation: 'code' };
