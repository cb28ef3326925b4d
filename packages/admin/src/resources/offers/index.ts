/** Offers (`view_offer`, `change_offer`): the advertised codes; a row opens the offer's page and history, whose Edit changes its title and advertising. */
import StyleIcon from '@mui/icons-material/Style';
import { OfferEdit } from './OfferEdit';
import { OfferList } from './OfferList';
import { OfferShow } from './OfferShow';

export default { list: OfferList, show: OfferShow, edit: OfferEdit, icon: StyleIcon, recordRepresentation: 'code' };
